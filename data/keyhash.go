package data

// keyHash is an open-addressing (linear probing) set of pair keys, for the
// training negatives' rejection test: one probe, about one cache miss, where
// the sorted sets take a binary search of ~17 (BenchmarkTrainNegatives).
// Key 0 marks an empty slot: key(i, j) of a pair with i ≠ j is never 0.
type keyHash struct {
	slots []uint64
	shift uint
}

// newKeyHash makes a set for up to n keys at a load of at most one half.
func newKeyHash(n int) *keyHash {
	bits := uint(4)
	for 1<<bits < 2*n {
		bits++
	}
	return &keyHash{slots: make([]uint64, 1<<bits), shift: 64 - bits}
}

// slot is key's home slot: Fibonacci hashing, the top bits of key·2⁶⁴/φ.
func (h *keyHash) slot(key uint64) uint64 { return (key * 0x9e3779b97f4a7c15) >> h.shift }

// add inserts key and reports whether it was new. The set must not be
// filled past its n.
func (h *keyHash) add(key uint64) bool {
	mask := uint64(len(h.slots) - 1)
	for s := h.slot(key); ; s = (s + 1) & mask {
		switch h.slots[s] {
		case 0:
			h.slots[s] = key
			return true
		case key:
			return false
		}
	}
}

// has reports whether key is in the set.
func (h *keyHash) has(key uint64) bool {
	mask := uint64(len(h.slots) - 1)
	for s := h.slot(key); ; s = (s + 1) & mask {
		switch h.slots[s] {
		case 0:
			return false
		case key:
			return true
		}
	}
}

// reset empties the set, keeping its memory.
func (h *keyHash) reset() { clear(h.slots) }

// hashedDraw is the smallest training-negative draw (a whole-graph step's,
// not a mini-batch's 512) that uses the hashed sets, and hashedMaxKeys the
// most positives and fixed negatives they hold (16 B a key at load ½).
const (
	hashedDraw    = 1 << 12
	hashedMaxKeys = 1 << 23
)

// hashed reports whether a training draw of k pairs uses the hashed sets,
// building them on first use: draws of at least hashedDraw pairs on graphs
// of at most hashedMaxKeys positives and fixed negatives. The draws are the
// same as the sorted sets give (TestHashedDrawsEqual).
func (s *Split) hashed(k int) bool {
	if k < hashedDraw {
		return false
	}
	if s.excluded == nil {
		var n int
		switch p := s.pos.(type) {
		case edgeSet:
			n = len(p)
		case keySet:
			n = len(p)
		default:
			return false
		}
		if n+len(s.fixedNeg) > hashedMaxKeys {
			return false
		}
		s.excluded = newKeyHash(n + len(s.fixedNeg))
		switch p := s.pos.(type) {
		case edgeSet:
			for _, e := range p {
				s.excluded.add(key(int(e[0]), int(e[1])))
			}
		case keySet:
			for _, kk := range p {
				s.excluded.add(kk)
			}
		}
		for _, kk := range s.fixedNeg {
			s.excluded.add(kk)
		}
	}
	if s.negHashed == nil || len(s.negHashed.slots) < 2*k {
		s.negHashed = newKeyHash(k)
	}
	return true
}

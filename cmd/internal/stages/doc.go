// Package stages writes and reads the part files of a run's whole-graph
// BFS stages, so that separate processes (Slurm array tasks: ignn prepare
// --shard I/N) compute them before the run.
//
// On the sampled path a run's preparation runs one BFS per landmark of a
// landmark:L input and one per source of the fixed τ sample and of the
// validation sample. WritePart computes part I of N of that work — a
// consecutive range of each — into DIR/bfs.shard-I-of-N.npz; Read reads
// every part of one N back for a run given --prepared DIR. Each BFS row is
// the same whoever computes it, so the run's numbers are the same bit for
// bit. The input (Input) is what the BFS roots and rows depend on: the
// prepared graphs' union and hop source, the data's fingerprint, the
// seed, task, positional input and τ sample size; a part of another run is
// refused by a checksum of them.
package stages

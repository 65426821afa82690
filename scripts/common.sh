# Shared by the measurement scripts (source it; BIN and OUT must be set
# for the functions that run it).

# binary_and_commit sets bin (IGNN_BIN, or bin/ignn built now) and commit,
# the commit the binary was built at (IGNN_COMMIT with IGNN_BIN; +modified
# when the tree outside docs/ differs from HEAD).
binary_and_commit() {
  bin=${IGNN_BIN:-}
  if [ -z "$bin" ]; then
    go build -o bin/ignn ./cmd/ignn
    bin=bin/ignn
  fi
  commit=${IGNN_COMMIT:-$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!docs' || echo +modified)}
}

# input_reference GRAPH PREFIX: the raw landmark:64 input's own AUC and τ on
# GRAPH (the `(input)` row of `ignn compare --positions`, no capacity row),
# into PREFIX.json (and PREFIX.time, PREFIX.cells); kept when it exists.
# INPUT_FLAGS: more flags for it (e.g. --spill DIR --max-memory 22GB at 10⁸).
input_reference() {
  local g=$1 prefix=$2
  [ -s "$prefix.json" ] && return 0
  echo "== $g: the landmark:64 input's own AUC and τ" >&2
  /usr/bin/time -f "%e %M" -o "$prefix.time" "$BIN" compare --dataset "$g" --positions landmark:64 --inputs-only \
    --repeats 1 --quiet --format json ${INPUT_FLAGS:-} --out "$prefix.cells" > "$prefix.json.tmp"
  mv "$prefix.json.tmp" "$prefix.json"
}

# train_once NAME FLAGS…: `ignn train FLAGS --json` under /usr/bin/time into
# $OUT/NAME.json (.time: wall seconds and peak KiB, .cmd, .log: its stderr);
# kept when it exists. A run the memory plan refuses leaves NAME.refused
# with the plan's message; any other failure stops the script.
train_once() {
  local name=$1; shift
  [ -s "$OUT/$name.json" ] || [ -s "$OUT/$name.refused" ] && return 0
  echo "== $name: ignn train $*" >&2
  echo "ignn train $*" > "$OUT/$name.cmd"
  if /usr/bin/time -f "%e %M" -o "$OUT/$name.time" "$BIN" train "$@" --json > "$OUT/$name.json.tmp" 2> "$OUT/$name.log"; then
    mv "$OUT/$name.json.tmp" "$OUT/$name.json"
  elif grep -q "the run needs an estimated" "$OUT/$name.log"; then
    grep "the run needs an estimated" "$OUT/$name.log" > "$OUT/$name.refused"
    rm -f "$OUT/$name.json.tmp"
  else
    cat "$OUT/$name.log" >&2
    exit 1
  fi
}

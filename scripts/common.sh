# Shared by the measurement scripts (source it; BIN must be set).

# input_reference GRAPH PREFIX: the raw landmark:64 input's own AUC and τ on
# GRAPH (the `(input)` row of `ignn compare --positions`, no capacity row),
# into PREFIX.json (and PREFIX.time, PREFIX.cells); kept when it exists.
input_reference() {
  local g=$1 prefix=$2
  [ -s "$prefix.json" ] && return 0
  echo "== $g: the landmark:64 input's own AUC and τ" >&2
  /usr/bin/time -f "%e %M" -o "$prefix.time" "$BIN" compare --dataset "$g" --models gcn --variants both \
    --positions landmark:64 --epochs 1 --batch-steps 1 --repeats 1 --workers 1 --capacity=false --quiet --format json \
    --out "$prefix.cells" > "$prefix.json.tmp"
  mv "$prefix.json.tmp" "$prefix.json"
}

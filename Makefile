# ignn — see README.md. `make run` and `make test` are the two set-up commands.
GO      ?= go
BIN     := bin/ignn
PKGS    := ./...

.PHONY: build test test-cluster bench bench-scale run reproduce reproduce-paper lint fuzz clean

build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/ignn

# Unit, gradient-check, metric, golden, fuzz-seed-corpus and end-to-end tests.
test:
	$(GO) vet $(PKGS)
	@d="$${IGNN_DATA:-../shared/data}"; test -f "$$d/email/email.txt" -a -f "$$d/protein/PROTEINS_full_A.txt" || \
		echo "make test: the Email/PROTEINS loader, datasets and fetch-on-real-data tests are skipped: raw files not in $$d (set IGNN_DATA, or run ignn data fetch)"
	$(GO) test -count=1 $(PKGS)

# A real one-node Slurm: grids as array jobs (scripts/test-cluster.sh; root, Debian).
test-cluster:
	./scripts/test-cluster.sh

# benchstat-ready: make bench > new.txt; benchstat old.txt new.txt
bench:
	$(GO) test -run '^$$' -bench . -skip Scale -benchmem -count 6 $(PKGS)

# The scale benchmarks (10⁵–10⁶ nodes, a 10⁷-line edge list): minutes each.
bench-scale:
	$(GO) test -run '^$$' -bench Scale -benchmem -count 6 -timeout 2h $(PKGS)

# The README's main job: all six models × four variants side by side on
# Communities link prediction (2 seeds, 100 epochs; under 5 minutes on 2 cores).
run: build
	./$(BIN) compare --grid scripts/run.grid.yaml --workers 2 --out out/run

# The paper's grid (docs/results.md); see that file for its wall time.
reproduce: build
	./scripts/reproduce.sh

# The paper's selection protocol (issue 14): lr and λ_MSE chosen per cell by validation AUC,
# then 3 seeds; docs/paper-protocol/results.md; then the default recipe (--scale large) beside
# base and both, docs/paper-protocol/recipe.md. About 1–2 hours on 2 cores; resumable.
reproduce-paper: build
	./scripts/reproduce-paper.sh

lint:
	@test -z "$$(gofmt -l .)" || (gofmt -l .; exit 1)
	$(GO) vet $(PKGS)
	$(GO) mod tidy -diff

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParseEdgeList -fuzztime 30s ./data
	$(GO) test -run '^$$' -fuzz FuzzParseFeatures -fuzztime 30s ./data
	$(GO) test -run '^$$' -fuzz FuzzParseLabels -fuzztime 30s ./data
	$(GO) test -run '^$$' -fuzz FuzzParseMatrixMarket -fuzztime 30s ./data
	$(GO) test -run '^$$' -fuzz FuzzDecompressed -fuzztime 30s ./data

clean:
	rm -rf bin

# ignn — see README.md. `make run` and `make test` are the two set-up commands.
GO      ?= go
BIN     := bin/ignn
PKGS    := ./...

.PHONY: build test bench run reproduce lint fuzz clean

build:
	$(GO) build -o $(BIN) ./cmd/ignn

# Unit, gradient-check, metric, golden, fuzz-seed-corpus and end-to-end tests.
test:
	$(GO) vet $(PKGS)
	$(GO) test -count=1 $(PKGS)

# benchstat-ready: make bench > new.txt; benchstat old.txt new.txt
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 6 $(PKGS)

# The README's main job: GCN variants side by side on Communities link prediction.
run: build
	./$(BIN) train --dataset communities --task link --model gcn --variant base --seed 1
	./$(BIN) train --dataset communities --task link --model gcn --variant hash --seed 1
	./$(BIN) train --dataset communities --task link --model gcn --variant mse --seed 1
	./$(BIN) train --dataset communities --task link --model gcn --variant both --seed 1

lint:
	@test -z "$$(gofmt -l .)" || (gofmt -l .; exit 1)
	$(GO) vet $(PKGS)
	$(GO) mod tidy -diff

fuzz:
	$(GO) test -run '^$$' -fuzz FuzzParseEdgeList -fuzztime 30s ./data
	$(GO) test -run '^$$' -fuzz FuzzParseFeatures -fuzztime 30s ./data
	$(GO) test -run '^$$' -fuzz FuzzParseLabels -fuzztime 30s ./data

clean:
	rm -rf bin

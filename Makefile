# One set-up for every target: .venv is (re)built when missing or older than pyproject.toml
# (or this Makefile: the extras installed are named here; [cluster] for the Dask tests, [rl]
# for the PettingZoo environment's test).
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
KERNEL  := $(VENV)/.kernel-compiled
SCENARIO ?=

.PHONY: play test lint bench screenshots docs clean fuzz slow

$(STAMP): pyproject.toml Makefile
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,cluster,rl]'
	@touch $(STAMP)

# The sight and cover kernels are compiled by numba and cached on disk: compiled here, once per
# change, so a game's or a test's first sight query does not wait for it.
$(KERNEL): $(STAMP) $(wildcard geometry/*.py geometry/sight/*.py geometry/cover/*.py)
	$(BIN)/python -c "from geometry.compiled import compile_all; print(f'compiled kernels ready ({compile_all():.0f} s)')"
	@touch $(KERNEL)

play: $(KERNEL)
	$(BIN)/wasteland play $(SCENARIO)

lint: $(STAMP)
	$(BIN)/ruff check geometry sim render tests bench
	$(BIN)/mypy

test: $(KERNEL) lint
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest -n auto --dist loadscope

# The AI players' full bars (tests/test_ai_slow.py: 200 games each way, 1000 games never
# refused); `make test` runs the same checks on fewer games.
slow: $(KERNEL)
	WASTELAND_SLOW=1 SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest \
		tests/test_ai_slow.py

# The fuzz suites (tests/test_fuzz_*.py) with many more examples than `make test`,
# new ones each run (hypothesis prints any failing example and how to replay it).
FUZZ_EXAMPLES ?= 2000
fuzz: $(KERNEL)
	WASTELAND_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) WASTELAND_FUZZ_RANDOM=1 SDL_VIDEODRIVER=dummy \
	SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest tests/test_fuzz_scenarios.py tests/test_fuzz_saves.py

bench: $(KERNEL)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m bench

screenshots: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m render.screenshots docs/img

# Generated documents (tests/test_unit_docs.py fails when one is stale).
docs: $(STAMP)
	$(BIN)/python -m sim.scenario.unit_docs > docs/units.md.tmp && mv docs/units.md.tmp docs/units.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache *.egg-info

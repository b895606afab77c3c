# One set-up for every target: .venv is (re)built when missing or older than pyproject.toml.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
SCENARIO ?=

.PHONY: play test lint bench screenshots docs clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

play: $(STAMP)
	$(BIN)/wasteland play $(SCENARIO)

lint: $(STAMP)
	$(BIN)/ruff check geometry sim render tests bench
	$(BIN)/mypy

test: $(STAMP) lint
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m pytest

bench: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m bench

screenshots: $(STAMP)
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(BIN)/python -m render.screenshots docs/img

# Generated documents (tests/test_unit_docs.py fails when one is stale).
docs: $(STAMP)
	$(BIN)/python -m sim.unit_docs > docs/units.md.tmp && mv docs/units.md.tmp docs/units.md

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache *.egg-info

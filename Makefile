# cardtable: `make demo` and `make test` set everything up from a fresh clone.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install demo test bench model system-deps clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

# Debian packages the tests and the demo use (card art to render, rsvg-convert).
system-deps:
	bash scripts/system-deps.sh

install: $(STAMP) system-deps

demo: install
	$(BIN)/cardtable demo

test: install
	$(BIN)/python -m pytest -q -p no:cacheprovider

bench: install
	$(BIN)/python -m bench

# Training the recogniser: never part of `make test`. After training, the first network
# is fine-tuned (training-deck patches never drawn before, loose cuts of backs that print
# faces) and recalibrated with its second opinion: ~25 min more on the shared 2-core
# machine (fresh patches ~5 min, 2 epochs ~5 min, calibration data ~13 min, bars ~7 min;
# vision/recognize/README.md, "Loose back cuts only").
model: install
	$(BIN)/pip install -q -e '.[train]'
	$(BIN)/python -m vision.training.train
	$(BIN)/python -m vision.training.finetune --loose-backs
	$(BIN)/python -m vision.training.pipnet

clean:
	rm -rf $(VENV) build *.egg-info

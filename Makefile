# The two commands of README.md, each setting up whatever is missing first (and quickly nothing when all is):
#   make run    the embedded model on the README's Two Sum
#   make test   the whole test suite, the embedded model's tests included (and headless Chromium for the pages')
# Other targets: make setup (Python packages, sandbox), make model (the embedded model only), make tuned
#   (llama-server built from source for this CPU, needs g++; it then serves instead of the prebuilt wheel),
#   make mcp-config (an MCP client's entry for this clone, with its absolute paths: docs/mcp.md).
# PYTHON picks the interpreter (3.10 or newer); PROBLEM the problem file for `make run`.

PYTHON ?= python3
PROBLEM ?= examples/two_sum.md
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: run test setup model tuned compiler sandbox browser mcp-config

run: setup model
	$(PY) main.py --problem-file $(PROBLEM)

test: setup model browser compiler
	$(PY) -m pytest

setup: $(INSTALLED) sandbox

mcp-config:
	@printf '{"mcpServers": {"codeloop": {"command": "%s", "args": ["%s", "--mcp"]}}}\n' "$(CURDIR)/$(PY)" "$(CURDIR)/main.py"

# The prebuilt llama.cpp wheel serves where it runs: only the weights are fetched. g++ is asked for only where
# llama-server must be built (no wheel for this machine, or `make tuned`).
model: $(INSTALLED)
	@$(PY) -c "from utils.local_model import is_set_up; import sys; sys.exit(not is_set_up())" || { \
		if $(PY) -c "from utils.local_model import engine; import sys; sys.exit(engine() != 'build')"; then $(GXX); fi; \
		$(PY) main.py --setup-local; }

# The suite's tests of the source build (a cut build resumes, a failed one says why) need g++, as the pages' need
# Chromium; `make run` does not.
compiler:
	@$(GXX)

tuned: $(INSTALLED)
	@$(GXX)
	CODELOOP_ENGINE=build $(PY) main.py --setup-local

GXX = command -v g++ >/dev/null 2>&1 || { [ "$$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1 && \
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq g++ >/dev/null; } || \
	{ echo "building llama-server needs g++: run 'sudo apt-get install g++', or set OPENAI_BASE_URL to use an endpoint"; exit 3; }

# Packages are installed again only when a requirements file changed.
$(INSTALLED): requirements.txt requirements-bench.txt requirements-mcp.txt requirements-engine.txt
	@$(PYTHON) -c "import sys; sys.exit(sys.version_info < (3, 10))" || \
		{ echo "codeloop needs Python 3.10 or newer; $(PYTHON) is $$($(PYTHON) -V 2>&1) (set PYTHON=python3.11, say)"; exit 2; }
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || \
		{ echo "cannot make a virtual environment: run 'apt-get install python3-venv' (as root), then make again"; exit 2; }
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -r requirements-bench.txt
	$(PY) -m pip install --quiet -r requirements-mcp.txt
	@$(PY) -m pip install --quiet --require-hashes --no-deps -r requirements-engine.txt 2>/dev/null || \
		echo "note: the prebuilt llama.cpp wheel (xllamacpp) does not install here; the embedded model will be built from source (needs g++)"
	@touch $(INSTALLED)

# bubblewrap is the strongest sandbox; without it codeloop falls back to unshare or a plain process.
sandbox:
	@command -v bwrap >/dev/null 2>&1 || { \
		if [ "$$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then \
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null || \
			{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null; }; \
		else \
			echo "note: bubblewrap is missing; run 'sudo apt-get install bubblewrap' for the strongest sandbox (until then: unshare or a plain process)"; \
		fi; }

# headless Chromium: the tests load each page (run.html, report.html) as a browser builds it; runs never need it.
browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
		if [ "$$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then \
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null || \
			{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }; \
		else \
			echo "note: chromium is missing; run 'sudo apt-get install chromium' for the page tests (until then they skip)"; \
		fi; }

# Thin wrapper: the build is CMake's. `make demo` and `make test` install
# missing Debian packages first (scripts/setup.sh; for the tests also DuckDB
# for Node from the npm registry).
BUILD ?= build
JOBS  ?= $(shell nproc)

.PHONY: all build setup setup-test demo test clean

all: build

setup:
	@sh scripts/setup.sh

setup-test:
	@sh scripts/setup.sh --test

build:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

demo: setup build
	@sh scripts/demo.sh

test: setup-test build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_FLAGS)

clean:
	rm -rf $(BUILD)

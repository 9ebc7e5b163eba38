# Thin wrapper: the build is CMake's. `make demo` and `make test` install
# missing Debian packages first (scripts/setup.sh).
BUILD ?= build
JOBS  ?= $(shell nproc)

.PHONY: all build setup demo test clean

all: build

setup:
	@sh scripts/setup.sh

build:
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

demo: setup build
	@sh scripts/demo.sh

test: setup build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_FLAGS)

clean:
	rm -rf $(BUILD)

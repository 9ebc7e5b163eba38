# Thin wrapper: the build is CMake's. `make demo` and `make test` install
# missing Debian packages first (scripts/setup.sh; for the tests also DuckDB
# for Node from the npm registry). `make test` also installs Paimon's own
# readers, the tests' other oracles (scripts/setup-interop.sh: pypaimon in a
# venv and Paimon Java, under INTEROP_BUILD/interop; quick once done), and
# hands them to the tests as ZSINK_INTEROP. A second build can share the
# first's (.ci/run: INTEROP_BUILD=build for the ASan pass). When the install
# fails the interop checks skip, unless ZSINK_INTEROP_REQUIRED=1 (CI). It
# builds the S3 server of the s3 tests too (scripts/setup-s3.sh: SeaweedFS
# from the Go module proxy into BUILD/s3; needs a Go toolchain): when it
# cannot, those tests skip, unless ZSINK_S3_REQUIRED=1 (CI). It installs the
# Kafka broker of the kafka tests too (scripts/setup-kafka.sh: Apache Kafka's
# jars from Maven Central into BUILD/kafka/libs): when it cannot, those tests
# skip, unless ZSINK_KAFKA_REQUIRED=1 (CI). The tests run in two lanes, the
# S3, Kafka, deploy and interop ones beside the rest (scripts/run-tests.sh).
BUILD ?= build
JOBS  ?= $(shell nproc)
INTEROP_BUILD ?= $(BUILD)

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
	@sh scripts/setup-interop.sh $(INTEROP_BUILD) || { [ "$$ZSINK_INTEROP_REQUIRED" != 1 ] && \
	    echo "make test: Paimon's readers are not installed: the interop checks will skip" >&2; }
	@sh scripts/setup-s3.sh $(BUILD) || { [ "$$ZSINK_S3_REQUIRED" != 1 ] && \
	    echo "make test: the S3 server (SeaweedFS) cannot be built: the s3 tests will skip" >&2; }
	@sh scripts/setup-kafka.sh $(BUILD) || { [ "$$ZSINK_KAFKA_REQUIRED" != 1 ] && \
	    echo "make test: the Kafka broker cannot be installed: the kafka tests will skip" >&2; }
	@ZSINK_INTEROP=$(abspath $(INTEROP_BUILD))/interop \
	    sh scripts/run-tests.sh $(BUILD) $(JOBS) $(CTEST_FLAGS)

clean:
	rm -rf $(BUILD)

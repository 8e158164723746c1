# fray - the two commands of the README, and the pieces they are made of.
#   make run    installs what is missing, builds, runs fray's main job
#   make test   installs what is missing, builds, runs the whole suite
#               (normal build, then ASan+UBSan build, then an -O3 build
#               with MPI running fray sim on 2 ranks, then a repeatable
#               fuzz run: fixed seed, fixed number of inputs)

BUILD       ?= build
BUILD_ASAN  ?= build-asan
BUILD_FUZZ  ?= build-fuzz
BUILD_MPI   ?= build-mpi
BUILD_REL   ?= build-rel
FUZZ_SECONDS ?= 20
FUZZ_RUNS   ?= 150000
JOBS        ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_GEN   := -G Ninja

.PHONY: all deps build run test test-normal test-asan test-mpi fuzz fuzz-build fuzz-repeatable bench install clean

all: build

deps:
	@scripts/install-deps.sh

$(BUILD)/build.ninja:
	cmake -S . -B $(BUILD) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: deps $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)

run: build
	@scripts/demo.sh $(BUILD)/fray

test: deps test-normal test-asan test-mpi fuzz-repeatable
	@echo "fray: all test stages passed (normal, ASan+UBSan, MPI + -O3, fuzz)"

test-normal: $(BUILD)/build.ninja
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan:
	cmake -S . -B $(BUILD_ASAN) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug -DFRAY_SANITIZE=ON -DFRAY_BENCH=ON
	cmake --build $(BUILD_ASAN) -j $(JOBS)
	cd $(BUILD_ASAN) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  ctest --output-on-failure -j $(JOBS)

# fray sim under mpirun with 2 ranks (issue 4 section 4), from a Release
# (-O3) build, which also proves the optimised build compiles cleanly.
test-mpi:
	cmake -S . -B $(BUILD_MPI) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DFRAY_MPI=ON -DFRAY_BENCH=OFF
	cmake --build $(BUILD_MPI) -j $(JOBS) --target fray
	cd $(BUILD_MPI) && ctest --output-on-failure -R sim_mpi

fuzz-build:
	CC=clang cmake -S . -B $(BUILD_FUZZ) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Debug \
	  -DFRAY_FUZZ=ON -DFRAY_SANITIZE=ON -DFRAY_TESTS=OFF -DFRAY_BENCH=OFF
	cmake --build $(BUILD_FUZZ) -j $(JOBS)

# A short fuzzing run of every parser; FUZZ_SECONDS=600 make fuzz for longer.
fuzz: fuzz-build
	@scripts/run-fuzz.sh $(BUILD_FUZZ) $(FUZZ_SECONDS)

# The suite's fuzzing: a fixed seed and number of inputs, so it repeats.
fuzz-repeatable: fuzz-build
	@scripts/run-fuzz.sh $(BUILD_FUZZ) 120 $(FUZZ_RUNS)

# Benchmarks measure the optimised build (Release: -O3, link-time
# optimisation), as fray sim is shipped.
bench: deps
	cmake -S . -B $(BUILD_REL) $(CMAKE_GEN) -DCMAKE_BUILD_TYPE=Release -DFRAY_TESTS=OFF
	cmake --build $(BUILD_REL) -j $(JOBS)
	@for b in $(BUILD_REL)/bench_*; do echo "== $$b"; $$b; done

install: build
	cmake --install $(BUILD)

clean:
	rm -rf $(BUILD) $(BUILD_ASAN) $(BUILD_FUZZ) $(BUILD_MPI) $(BUILD_REL)

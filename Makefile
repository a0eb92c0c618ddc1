# autotune: `make` builds build/autotune; `make check` runs the CPU test
# suite (TAP, under prove); `make gpu-check` builds and runs the GPU suite;
# `make gpu-bench` the bandwidth benchmark against memcpy, cuBLAS and the
# classic kernels, `make gpu-tune-bench` the tuning-time benchmark,
# `make gpu-crosscheck` the emitted .cu timed by a plain nvcc program
# beside the benchmark (these four need a CUDA GPU).

CUDA    ?= /usr/local/cuda
CC      ?= gcc
NVCC    ?= $(CUDA)/bin/nvcc
B       := build

# Debian packages: installed (as root) or named before anything is built,
# so the README's two commands work on a bare machine (.ci/deps.sh).
DEPS_GOALS := $(if $(MAKECMDGOALS),$(MAKECMDGOALS),all)
ifneq ($(filter all check check-full fuzz fuzz-build examples install libs,$(DEPS_GOALS)),)
DEPS_OK := $(shell sh .ci/deps.sh $(if $(filter check check-full fuzz \
             fuzz-build,$(DEPS_GOALS)),check,build); echo $$?)
ifneq ($(DEPS_OK),0)
$(error missing packages: see above)
endif
endif

WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
           -Wno-missing-field-initializers -Wno-format-truncation
CPPFLAGS:= -I$(CUDA)/include -Iinclude -I. -D_GNU_SOURCE \
           -DAT_WORKER_DEFAULT='"$(CURDIR)/$(B)/autotune"' \
           -DAT_PYTHON_DIR='"$(CURDIR)/python"'
CFLAGS  ?= -O2 -g
SAN     := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
           -fno-omit-frame-pointer
# SQLite is linked statically: the GPU machine has no libsqlite3.
SQLITE_A:= $(firstword $(wildcard /usr/lib/x86_64-linux-gnu/libsqlite3.a \
                                  /usr/lib/libsqlite3.a))
# libyaml (spec files), static for the same reason.
YAML_A  := $(firstword $(wildcard /usr/lib/x86_64-linux-gnu/libyaml.a \
                                  /usr/lib/libyaml.a))
LIBS    := $(SQLITE_A) $(YAML_A) -ldl -lm -lpthread
# jansson (JSON) for the command line, static for the same reason.
JANSSON_A := $(firstword $(wildcard /usr/lib/x86_64-linux-gnu/libjansson.a \
                                    /usr/lib/libjansson.a))
# Sanitizer runtimes linked in, so test binaries run where gcc's are absent.
SANLINK := -fsanitize=address,undefined -static-libasan -static-libubsan
CMOCKA  := -lcmocka -Wl,-rpath,'$$ORIGIN/lib'

# Layers, lowest first (docs/ARCHITECTURE.md): each folder includes only
# itself and the folders before it; tests/check_layers.pl enforces it.
BASE_SRC := base/error.c base/clock.c base/dl.c base/pcg.c base/safefile.c \
            base/text.c base/sockio.c base/expr.c base/readfile.c \
            base/cpp.c base/cpp_lex.c base/cpp_if.c base/median.c
GEN_SRC_ := gen/types.c gen/problem.c gen/distance.c gen/space.c gen/arch.c gen/occupancy.c gen/family.c gen/family_defaults.c \
            gen/transpose.c gen/transpose_problem.c gen/transpose_check.c \
            gen/transpose_emit.c gen/transpose_strip.c gen/transpose_fitted.c \
            gen/transpose_smem.c gen/reduce.c \
            gen/reduce_problem.c gen/reduce_check.c gen/reduce_emit.c gen/reduce_flat_rows.c \
            gen/reduce_geom.c \
            gen/expand.c gen/emit.c gen/emit_tuned.c gen/emit_multi.c gen/emit_multi_header.c gen/ident.c
SEARCH_SRC := search/strategy.c search/exhaustive.c search/walk.c \
              search/random.c search/local.c search/genetic.c \
              search/record.c search/replay.c
# The spec layer (a user's kernel as a family) and runtime's layers,
# lowest first: driver < store < measure < tune < plan < api.
SPEC_SRC := $(sort $(wildcard spec/*.c))
# Test builds only (-DAT_TEST, as SQLite's SQLITE_TEST): the GPU suite's
# planted faults. In libautotune-san.a (the tests') and
# build/autotune-test (tests/gpu/faults.sh), never in libautotune.a.
TEST_SRC := runtime/tune/tune_plant.c
RUNTIME_SRC := $(filter-out $(TEST_SRC),\
                 $(foreach l,driver store measure tune plan api,\
                   $(sort $(wildcard runtime/$(l)/*.c))))
# The command line, its subcommands and the benchmark with its contenders:
# in the autotune binary, not in libautotune.a.
CLI_SRC := cli/main.c cli/options.c cli/option_values.c cli/paths.c cli/flags.c cli/help.c cli/tune_lists.c cli/errors.c cli/cmd_tune.c \
           cli/cmd_space.c cli/cmd_tune_list.c cli/bench_summary.c \
           cli/cmd_replay.c cli/cmd_bench.c cli/report.c cli/json.c \
           cli/bench.c cli/compare.c cli/bench_families.c \
           cli/transpose_bench.c cli/transpose_baselines.c \
           cli/transpose_cublas.c cli/transpose_cutensor.c cli/bench_tune.c cli/bench_calibrate.c \
           cli/bench_device.c \
           cli/bench_resume.c cli/bench_report.c cli/reduce_bench.c cli/reduce_cub.c cli/reduce_cutensor.c cli/cutensor_lib.c cli/cmd_cache.c cli/cmd_plot.c \
           cli/wisdom_export.c cli/wisdom_import.c cli/wisdom_profile.c \
           cli/dump_data.c
LIB_SRC := $(BASE_SRC) $(GEN_SRC_) $(SEARCH_SRC) $(SPEC_SRC) $(RUNTIME_SRC)
TEMPLATES := templates/transpose.cu templates/reduce.cu templates/check.cu
GEN_SRC := $(B)/gen/templates.c
# The benchmark's classic kernels: embedded into the command only.
CLI_TEMPLATES := templates/baselines.cu templates/reduce_cub.cu
CLI_GEN := $(B)/cli/templates.c

REL_OBJ := $(patsubst %.c,$(B)/rel/%.o,$(LIB_SRC) $(GEN_SRC))
SAN_OBJ := $(patsubst %.c,$(B)/san/%.o,$(LIB_SRC) $(TEST_SRC) $(GEN_SRC))
TEST_OBJ := $(patsubst %.c,$(B)/relt/%.o,$(LIB_SRC) $(TEST_SRC) $(GEN_SRC) \
              $(CLI_SRC) $(CLI_GEN))
CLI_REL := $(patsubst %.c,$(B)/rel/%.o,$(CLI_SRC) $(CLI_GEN))
CLI_SAN := $(patsubst %.c,$(B)/san/%.o,$(CLI_SRC) $(CLI_GEN))

CPU_TESTS := test_pcg test_expr test_spec test_spec_inputs test_space test_family test_reduce test_search test_compile \
             test_reliability test_hostile test_hostile_input test_help \
             test_cache test_cubins test_emit test_cli test_json \
             test_nodevice test_wisdom test_effort test_host_pool \
             test_bench_summary test_slots test_cpp test_device_memo test_banks \
             test_cub_ahead
GPU_TESTS := gpu_variants gpu_api gpu_reduce gpu_runtime

.PHONY: all check check-full gpu-check gpu-bench gpu-tune-bench gpu-list-bench gpu-crosscheck \
        gpu-build clean fuzz fuzz-build \
        examples
all: $(B)/autotune

$(B)/gen/templates.c: gen/embed.sh $(TEMPLATES)
	@mkdir -p $(@D)
	sh gen/embed.sh $(TEMPLATES) > $@.tmp && mv $@.tmp $@

$(B)/cli/templates.c: gen/embed.sh $(CLI_TEMPLATES)
	@mkdir -p $(@D)
	sh gen/embed.sh $(CLI_TEMPLATES) > $@.tmp && mv $@.tmp $@

$(B)/rel/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -pthread -MMD -MP -c $< -o $@

$(B)/san/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CPPFLAGS) -DAT_TEST $(SAN) -pthread -MMD -MP -c $< -o $@

$(B)/relt/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(filter-out -DAT_WORKER_DEFAULT=%,$(CPPFLAGS)) -DAT_TEST \
	    -DAT_WORKER_DEFAULT='"$(CURDIR)/$(B)/autotune-test"' $(CFLAGS) \
	    -pthread -MMD -MP -c $< -o $@

$(B)/libautotune.a: $(REL_OBJ)
	rm -f $@ && ar rcs $@ $^

$(B)/libautotune-san.a: $(SAN_OBJ)
	rm -f $@ && ar rcs $@ $^

$(B)/autotune: $(CLI_REL) $(B)/libautotune.a
	$(CC) $(CFLAGS) -pthread $^ $(LIBS) $(JANSSON_A) -o $@

# The command with the test hooks (AUTOTUNE_PLANT), for the GPU suite's
# faults.sh; its own GPU worker.
$(B)/autotune-test: $(TEST_OBJ)
	$(CC) $(CFLAGS) -pthread $^ $(LIBS) $(JANSSON_A) -o $@

# The sanitized CLI, for the CLI tests.
$(B)/autotune-san: $(CLI_SAN) $(B)/libautotune-san.a
	$(CC) $(SAN) $(SANLINK) -pthread $^ $(LIBS) $(JANSSON_A) -o $@

# cmocka travels with the tests (the GPU machine has no libcmocka.so.0).
$(B)/tests/lib/libcmocka.so.0:
	@mkdir -p $(@D)
	cp -L /usr/lib/x86_64-linux-gnu/libcmocka.so.0 $@

$(B)/tests/%: tests/%.c tests/tap.h tests/cli_run.h tests/cli_shell.h tests/gpu_programs.h tests/test_problem.h $(B)/libautotune-san.a \
              $(B)/tests/lib/libcmocka.so.0
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CPPFLAGS) $(SAN) $(SANLINK) -pthread \
	    -DAT_DATA='"$(CURDIR)/tests/data"' \
	    -DAT_EXAMPLES='"$(CURDIR)/examples"' $< \
	    $(B)/libautotune-san.a $(LIBS) $(JANSSON_A) -L$(B)/tests/lib \
	    $(CMOCKA) -o $@

# Without sanitizers: the compile sweep (NVRTC forked from an ASan binary
# allocates through ASan and compiles at half the speed; `make check-full`
# runs the sanitized build too), and gpu_variants for compute-sanitizer
# (which cannot share a process with ASan): tests/gpu/sanitize.sh.
$(B)/tests/%-rel: tests/%.c tests/tap.h tests/cli_run.h tests/gpu_programs.h tests/test_problem.h $(B)/libautotune.a \
              $(B)/tests/lib/libcmocka.so.0
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -pthread $< $(B)/libautotune.a \
	    $(LIBS) -L$(B)/tests/lib $(CMOCKA) -o $@

# Fuzzing (libFuzzer, clang): the CLI's option and problem parsing,
# problem text, replay's CSV and cache files. `make fuzz` runs each target
# FUZZ_SECONDS and grows its committed corpus; `make check` replays the
# corpora and fuzzes each for a few seconds (tests/fuzz/smoke.sh).
FUZZ_CC  ?= clang
FUZZ_WARN := $(filter-out -Wno-format-truncation,$(WARN))
FUZZ_TARGETS := fuzz_options fuzz_problem fuzz_record fuzz_cache fuzz_expr fuzz_spec
FUZZ_SECONDS ?= 600
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer-no-link,address,undefined \
              -fno-sanitize-recover=all
FUZZ_OBJ := $(patsubst %.c,$(B)/fuzz/%.o,$(LIB_SRC) $(GEN_SRC) \
              $(filter-out cli/main.c,$(CLI_SRC)) $(CLI_GEN))

$(B)/fuzz/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_WARN) $(CPPFLAGS) $(FUZZ_FLAGS) -pthread -MMD -MP -c $< -o $@

$(B)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_WARN) $(CPPFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer -pthread \
	    $^ $(LIBS) $(JANSSON_A) -o $@

fuzz-build: $(addprefix $(B)/fuzz/,$(FUZZ_TARGETS))
fuzz: fuzz-build
	sh tests/fuzz/run.sh $(FUZZ_SECONDS) $(FUZZ_TARGETS)

TEST_ENV := ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 \
            LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
            UBSAN_OPTIONS=print_stacktrace=1 \
            AUTOTUNE_BIN=$(CURDIR)/$(B)/autotune-san \
            AUTOTUNE_REL=$(CURDIR)/$(B)/autotune

# Tests run side by side, one a processor (PROVE_JOBS): on CI's two cores
# the suite's 2200 CPU-s took 1527 s one at a time (2026-11-29). The
# compile sweep, the longest, goes first so the rest overlap it.
PROVE_JOBS ?= $(shell nproc 2>/dev/null || echo 1)

check: $(addprefix $(B)/tests/,$(CPU_TESTS)) $(B)/tests/test_sweep-rel examples \
       $(B)/tests/test_store $(B)/tests/test_jobs \
       $(B)/autotune-san $(B)/autotune fuzz-build $(B)/pyenv/installed
	$(TEST_ENV) prove -v --timer -j$(PROVE_JOBS) $(B)/tests/test_sweep-rel \
	    tests/check_layers.pl $(addprefix $(B)/tests/,$(CPU_TESTS)) \
	    tests/test_install.sh tests/fuzz/smoke.sh tests/python.sh \
	    tests/store.sh tests/jobs.sh tests/template_host.sh \
	    tests/strip_host.sh tests/reduce_host.sh tests/bench_resume.sh

# The CPU suite with its slower sweeps too (every point compiled for sm_80
# as well as sm_90, every point with a tune's own paths, the sweep under
# the sanitizers as well): for the GPU machine or a nightly run, not CI.
check-full: $(addprefix $(B)/tests/,$(CPU_TESTS)) $(B)/tests/test_sweep-rel \
            $(B)/tests/test_sweep $(B)/autotune-san
	$(TEST_ENV) AUTOTUNE_CHECK_FULL=1 prove -v tests/check_layers.pl \
	    $(addprefix $(B)/tests/,$(CPU_TESTS)) $(B)/tests/test_sweep-rel \
	    $(B)/tests/test_sweep

gpu-build: $(addprefix $(B)/tests/,$(GPU_TESTS)) $(B)/autotune $(B)/autotune-test \
           $(B)/tests/gpu_variants-rel $(B)/tests/gpu_reduce-rel \
           $(B)/autotune-san $(B)/examples/api_example \
           $(B)/examples/api_reduce $(B)/examples/api_spec \
           $(B)/bench/launch_overhead $(B)/bench/near_quality \
           $(B)/bench/estimate_latency $(B)/bench/near_retime
gpu-check: gpu-build python-wheel
	sh tests/gpu/run.sh
gpu-bench: $(B)/autotune
	sh tests/gpu/bench.sh
gpu-tune-bench: $(B)/autotune
	sh tests/gpu/tune_bench.sh
# A list of 16 problems on one GPU and on two, and through a store by two
# hosts (docs/PERFORMANCE.md, "A list on every GPU"; needs two GPUs).
gpu-list-bench: $(B)/autotune
	sh tests/gpu/list_bench.sh
gpu-crosscheck: $(B)/autotune
	sh tests/gpu/crosscheck.sh
	sh tests/gpu/crosscheck_reduce.sh
	sh tests/gpu/crosscheck_spec.sh

# Benchmarks of the runtime API (tests/bench): launch overhead and an
# answer's latency on the GPU; nearest-size reuse from exhaustive records
# (near_quality, CPU) and timed through the API (near_retime, GPU; both
# run by tests/gpu/near_sweep.sh).
$(B)/bench/%: tests/bench/%.c $(B)/libautotune.a
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -pthread $< $(B)/libautotune.a \
	    $(LIBS) -o $@

$(B)/examples/%: examples/%.c $(B)/libautotune.a
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -pthread $< $(B)/libautotune.a \
	    $(LIBS) -L$(CUDA)/lib64 -lcudart_static -lrt -o $@
examples: $(B)/examples/api_example $(B)/examples/api_reduce \
          $(B)/examples/api_spec

clean:
	rm -rf $(B)

# make install PREFIX=..., the shared library and pkg-config file.
include mk/install.mk
include mk/python.mk

-include $(REL_OBJ:.o=.d) $(SAN_OBJ:.o=.d) $(CLI_REL:.o=.d) \
         $(CLI_SAN:.o=.d) $(FUZZ_OBJ:.o=.d) $(TEST_OBJ:.o=.d)

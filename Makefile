# autotune: `make` builds build/autotune; `make check` runs the CPU test
# suite (TAP, under prove); `make gpu-check` builds and runs the GPU suite;
# `make gpu-bench` the bandwidth benchmark against memcpy, cuBLAS and the
# classic kernels, `make gpu-tune-bench` the tuning-time benchmark (these
# three need a CUDA GPU).

CUDA    ?= /usr/local/cuda
CC      ?= gcc
NVCC    ?= $(CUDA)/bin/nvcc
B       := build

WARN    := -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes \
           -Wno-missing-field-initializers -Wno-format-truncation
CPPFLAGS:= -I$(CUDA)/include -Iruntime -D_GNU_SOURCE
CFLAGS  ?= -O2 -g
SAN     := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
           -fno-omit-frame-pointer
# SQLite is linked statically: the GPU machine has no libsqlite3.
SQLITE_A:= $(firstword $(wildcard /usr/lib/x86_64-linux-gnu/libsqlite3.a \
                                  /usr/lib/libsqlite3.a))
LIBS    := $(SQLITE_A) -ldl -lm -lpthread
# Sanitizer runtimes linked in, so test binaries run where gcc's are absent.
SANLINK := -fsanitize=address,undefined -static-libasan -static-libubsan
CMOCKA  := -lcmocka -Wl,-rpath,'$$ORIGIN/lib'

LIB_SRC := gen/types.c gen/problem.c gen/space.c gen/family.c \
           gen/transpose.c gen/expand.c gen/emit.c gen/json.c \
           gen/bench_cmd.c \
           search/pcg.c search/strategy.c search/exhaustive.c \
           search/walk.c search/random.c search/local.c search/genetic.c \
           search/record.c search/replay.c \
           runtime/error.c runtime/cuda_api.c runtime/nvrtc_api.c \
           runtime/device.c runtime/compile.c runtime/compile_proc.c \
           runtime/bench.c \
           runtime/cache.c runtime/cubins.c runtime/elf.c runtime/tune.c \
           runtime/api.c runtime/cublas.c runtime/compare.c
TEMPLATES := templates/transpose.cu templates/check.cu \
             templates/baselines.cu
GEN_SRC := $(B)/gen/templates.c

REL_OBJ := $(patsubst %.c,$(B)/rel/%.o,$(LIB_SRC) $(GEN_SRC))
SAN_OBJ := $(patsubst %.c,$(B)/san/%.o,$(LIB_SRC) $(GEN_SRC))

CPU_TESTS := test_pcg test_space test_search test_compile test_cache \
             test_cubins \
             test_emit test_cli \
             test_nodevice
GPU_TESTS := gpu_variants gpu_api

.PHONY: all check gpu-check gpu-bench gpu-tune-bench gpu-build clean \
        examples
all: $(B)/autotune

$(B)/gen/templates.c: gen/embed.sh $(TEMPLATES)
	@mkdir -p $(@D)
	sh gen/embed.sh $(TEMPLATES) > $@.tmp && mv $@.tmp $@

$(B)/rel/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -pthread -MMD -MP -c $< -o $@

$(B)/san/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CPPFLAGS) $(SAN) -pthread -MMD -MP -c $< -o $@

$(B)/libautotune.a: $(REL_OBJ)
	ar rcs $@ $^

$(B)/libautotune-san.a: $(SAN_OBJ)
	ar rcs $@ $^

$(B)/autotune: $(B)/rel/gen/main.o $(B)/libautotune.a
	$(CC) $(CFLAGS) -pthread $^ $(LIBS) -o $@

# The sanitized CLI, for the CLI tests.
$(B)/autotune-san: $(B)/san/gen/main.o $(B)/libautotune-san.a
	$(CC) $(SAN) $(SANLINK) -pthread $^ $(LIBS) -o $@

# cmocka travels with the tests (the GPU machine has no libcmocka.so.0).
$(B)/tests/lib/libcmocka.so.0:
	@mkdir -p $(@D)
	cp -L /usr/lib/x86_64-linux-gnu/libcmocka.so.0 $@

$(B)/tests/%: tests/%.c tests/tap.h $(B)/libautotune-san.a \
              $(B)/tests/lib/libcmocka.so.0
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CPPFLAGS) $(SAN) $(SANLINK) -pthread \
	    -DAT_DATA='"$(CURDIR)/tests/data"' $< \
	    $(B)/libautotune-san.a $(LIBS) -L$(B)/tests/lib $(CMOCKA) -o $@

TEST_ENV := ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 \
            LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
            UBSAN_OPTIONS=print_stacktrace=1 \
            AUTOTUNE_BIN=$(CURDIR)/$(B)/autotune-san

check: $(addprefix $(B)/tests/,$(CPU_TESTS)) $(B)/autotune-san
	$(TEST_ENV) prove -v $(addprefix $(B)/tests/,$(CPU_TESTS))

gpu-build: $(addprefix $(B)/tests/,$(GPU_TESTS)) $(B)/autotune \
           $(B)/autotune-san $(B)/examples/api_example
gpu-check: gpu-build
	sh tests/gpu/run.sh
gpu-bench: $(B)/autotune
	sh tests/gpu/bench.sh
gpu-tune-bench: $(B)/autotune
	sh tests/gpu/tune_bench.sh

$(B)/examples/api_example: examples/api_example.c $(B)/libautotune.a
	@mkdir -p $(@D)
	$(CC) $(WARN) $(CPPFLAGS) $(CFLAGS) -pthread $< $(B)/libautotune.a \
	    $(LIBS) -L$(CUDA)/lib64 -lcudart_static -lrt -o $@
examples: $(B)/examples/api_example

clean:
	rm -rf $(B)

-include $(REL_OBJ:.o=.d) $(SAN_OBJ:.o=.d) $(B)/rel/gen/main.d \
         $(B)/san/gen/main.d

# cybershake: one Makefile for the whole toolkit.
#   make            build everything this machine can build (CUDA parts when nvcc is present)
#   make demo       install missing Debian packages, build, run the demo site
#   make test       install missing Debian packages, build, run every test
#   make sgt-only   the SGT solver alone, from CUDA, MPI and HDF5 (for GPU machines)
#   make format     clang-format every C and CUDA file
#   make fuzz       the fuzz harnesses under the sanitizers, long (FUZZ_ITERATIONS per harness)

BUILD   ?= build
CC      ?= gcc
NVCC    ?= $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
CUDA_ARCH ?= sm_90

GIT_REV := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)

MPI_CFLAGS  := $(shell mpicc --showme:compile 2>/dev/null)
MPI_LIBS    := $(shell mpicc --showme:link 2>/dev/null)
# Serial HDF5, found without pkg-config where need be (the GPU machines have none).
SERIAL_HDF5_CFLAGS := $(shell pkg-config --cflags hdf5-serial 2>/dev/null || pkg-config --cflags hdf5 2>/dev/null || (test -d /usr/include/hdf5/serial && echo -I/usr/include/hdf5/serial))
SERIAL_HDF5_LIBS := $(shell pkg-config --libs hdf5-serial 2>/dev/null || pkg-config --libs hdf5 2>/dev/null || (test -d /usr/lib/x86_64-linux-gnu/hdf5/serial && echo -L/usr/lib/x86_64-linux-gnu/hdf5/serial -lhdf5) || echo -lhdf5)
# The full build takes parallel HDF5 (Open MPI's) even where the serial one is installed too.
HDF5_CFLAGS := $(shell pkg-config --cflags hdf5-openmpi 2>/dev/null || pkg-config --cflags hdf5 2>/dev/null || pkg-config --cflags hdf5-serial 2>/dev/null || echo none)
HDF5_LIBS   := $(shell pkg-config --libs hdf5-openmpi 2>/dev/null || pkg-config --libs hdf5 2>/dev/null || pkg-config --libs hdf5-serial 2>/dev/null)
ifeq ($(HDF5_CFLAGS),none)
HDF5_CFLAGS := $(SERIAL_HDF5_CFLAGS)
HDF5_LIBS   := $(SERIAL_HDF5_LIBS)
endif

# SQLite, libcurl, PROJ, FFTW, cairo (and OpenSSL) from Debian packages unpacked into a folder,
# for machines that lack them and have no package manager (the GPU machines):
# make DEPS_PREFIX=DIR, DIR made by bench/deps_prefix.sh. The programs find those libraries
# through their run path; PROJ finds its database through PROJ_DATA=DIR/usr/share/proj.
DEPS_PREFIX ?=
ifneq ($(DEPS_PREFIX),)
DEPS_ROOT   := $(abspath $(DEPS_PREFIX))
DEPS_LIBDIR := $(DEPS_ROOT)/usr/lib/x86_64-linux-gnu
DEPS_INC    := -I$(DEPS_ROOT)/usr/include -I$(DEPS_ROOT)/usr/include/x86_64-linux-gnu -I$(DEPS_ROOT)/usr/include/cairo
# DT_RPATH (--disable-new-dtags), not RUNPATH: it also serves the libraries those libraries
# load (libcurl needs libssh2, ...), which the host may lack.
DEPS_LINK   := -L$(DEPS_LIBDIR) -Wl,--disable-new-dtags -Wl,-rpath,$(DEPS_LIBDIR) -Wl,-rpath-link,$(DEPS_LIBDIR)
endif
HAVE_OPENSSL := $(shell printf '\#include <openssl/evp.h>\n' | $(CC) $(DEPS_INC) -E -x c - >/dev/null 2>&1 && echo 1)

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter -Wno-format-truncation
CSTD    := -std=c11 -D_GNU_SOURCE
OPT     ?= -O3 -g
ARCH    ?= -march=native
CFLAGS_BASE := $(CSTD) $(OPT) $(ARCH) $(WARN) -fopenmp -DCS_GIT_REVISION='"$(GIT_REV)"' -MMD -MP
ifeq ($(HAVE_OPENSSL),1)
CFLAGS_BASE += -DCS_HAVE_OPENSSL $(DEPS_INC)
OPENSSL_LIBS := $(DEPS_LINK) -lcrypto
endif

FULL_PKGS := sqlite3 libcurl proj fftw3 cairo
ifneq ($(DEPS_PREFIX),)
FULL_CFLAGS := $(DEPS_INC)
FULL_LIBS   := $(DEPS_LINK) -lsqlite3 -lcurl -lproj -lfftw3 -lcairo
else
FULL_CFLAGS := $(shell pkg-config --cflags $(FULL_PKGS) 2>/dev/null)
FULL_LIBS   := $(shell pkg-config --libs $(FULL_PKGS) 2>/dev/null)
endif

# Layers, bottom up (docs/architecture.md). Each folder, its commands (*_cli.c) included, is
# compiled with the include paths of its own folder and of the folders it uses, nothing else, so
# a new dependency on a higher layer does not compile; cli/ (the dispatcher), the tests and the
# benchmarks sit on top and see every folder. tests/cli/test_structure.sh (tools/check_layers.py)
# checks that this table has no cycle, that the sources and objects keep to it, and that the
# folders' actual #include and symbol dependencies have no cycle.
LIBRARY_FOLDERS := common formats db sgt erf extract hazard workflow
USES_common   :=
USES_formats  := common
USES_db       := common
USES_sgt      := common formats
USES_erf      := common formats db sgt
USES_extract  := common formats db erf
USES_hazard   := common formats db erf
USES_workflow := common formats db sgt erf extract hazard
# The prefixes a library folder's exported names carry (commands export only cs_*_main).
PREFIXES_common   := cs_
PREFIXES_formats  := srf_ sgt_file_ mt_ plan_keys_ im_band_
PREFIXES_db       := cs_db_ cs_site
PREFIXES_sgt      := sgt_
PREFIXES_erf      := erf_ site_plan_ rupgen_
PREFIXES_extract  := extract_ synth_ im_ seis_ sac_ sgt_set_ variation_source_
PREFIXES_hazard   := hazard_ disagg_ gmpe_ peer_ site_level
PREFIXES_workflow := wf_
ALL_INCLUDES  := $(foreach d,$(LIBRARY_FOLDERS) cli,-I$(d))
INCLUDES      := $(ALL_INCLUDES)
folder_of      = $(firstword $(subst /, ,$(1)))
is_library     = $(filter $(call folder_of,$(1)),$(LIBRARY_FOLDERS))
layer_includes = $(if $(call is_library,$(1)),$(foreach d,$(call folder_of,$(1)) $(USES_$(call folder_of,$(1))),-I$(d)),$(ALL_INCLUDES))

# Sources: every C file of a folder. common/cs_geo.c needs PROJ and common/cs_stage.c libcurl,
# so the SGT-only build leaves them out; sgt/sgt_nocuda.c stands in for the CUDA back end where
# nvcc is missing.
COMMON_FULL := common/cs_geo.c common/cs_stage.c
COMMON_CORE := $(filter-out $(COMMON_FULL),$(wildcard common/*.c))
FORMATS_SRC := $(wildcard formats/*.c)
DB_SRC      := $(wildcard db/*.c)
SGT_SRC     := $(filter-out sgt/sgt_nocuda.c,$(wildcard sgt/*.c))
ERF_SRC     := $(wildcard erf/*.c)
EXTRACT_SRC := $(filter-out extract/synth_nogpu.c,$(wildcard extract/*.c))
HAZARD_SRC  := $(wildcard hazard/*.c)
WORKFLOW_SRC := $(wildcard workflow/*.c)
CLI_SRC     := cli/cybershake.c

# The CUDA back end when nvcc is there, otherwise a stub that says the build has none.
ifneq ($(NVCC),)
CUDA_HOME ?= $(patsubst %/bin/,%,$(dir $(realpath $(NVCC))))
CUDA_EXTRACT_OBJ := $(patsubst %.cu,$(BUILD)/obj/%.o,$(wildcard extract/*.cu))
CUDA_OBJ  := $(BUILD)/obj/sgt/sgt_cuda.o $(CUDA_EXTRACT_OBJ)
CUDA_LIBS := -L$(CUDA_HOME)/lib64 -L$(CUDA_HOME)/targets/x86_64-linux/lib -lcudart_static -ldl -lrt -lpthread -lstdc++
NOCUDA_SRC :=
NOCUDA_EXTRACT_SRC :=
else
CUDA_OBJ  :=
CUDA_LIBS :=
NOCUDA_SRC := sgt/sgt_nocuda.c
NOCUDA_EXTRACT_SRC := extract/synth_nogpu.c
endif
# CUDA_ARCH may list several targets (make CUDA_ARCH="sm_90 sm_100"): each gets its machine code
# and PTX.
CUDA_GENCODE := $(foreach a,$(CUDA_ARCH),-gencode=arch=compute_$(a:sm_%=%),code=[$(a),compute_$(a:sm_%=%)])
# -Wmissing-declarations is C++'s -Wmissing-prototypes: an exported host function of a .cu file
# has its declaration (its header) in view.
NVCCFLAGS ?= -O3 -std=c++17 $(CUDA_GENCODE) --Werror all-warnings \
             -Xcompiler -Wall,-Wno-unused-parameter,-Wno-unused-function,-Wmissing-declarations,-fopenmp \
             $(NVCC_EXTRA)

FULL_SRC := $(COMMON_CORE) $(COMMON_FULL) $(FORMATS_SRC) $(DB_SRC) $(SGT_SRC) $(EXTRACT_SRC) $(ERF_SRC) $(HAZARD_SRC) $(WORKFLOW_SRC) $(NOCUDA_SRC) $(NOCUDA_EXTRACT_SRC)
TEST_SRC := $(wildcard tests/unit/*.c)

OBJ_FULL := $(FULL_SRC:%.c=$(BUILD)/obj/%.o)
OBJ_CLI  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
OBJ_TEST := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)

CFLAGS_FULL := $(CFLAGS_BASE) -DCS_HAVE_PROJ $(MPI_CFLAGS) $(HDF5_CFLAGS) $(FULL_CFLAGS)
LIBS_FULL   := $(FULL_LIBS) $(HDF5_LIBS) $(MPI_LIBS) $(OPENSSL_LIBS) $(CUDA_LIBS) -fopenmp -lm

BIN := $(BUILD)/bin

.PHONY: all deps test demo clean format sgt-only fuzz fuzz-build bench-gpu bench-extract bench-study print-layers print-objects
all: $(BIN)/cybershake $(BIN)/cs_unit_tests

deps:
	@sh tools/install-deps.sh

# Every object the two builds make, for tools/check_build_deps.py.
print-objects:
	@echo $(OBJ_FULL) $(OBJ_CLI) $(OBJ_TEST) $(CUDA_OBJ) $(SGTONLY_OBJ) $(if $(NVCC),$(SGTONLY_DIR)/obj/sgt/sgt_cuda.o)

# The layer table for tools/check_layers.py: one line per library folder.
print-layers:
	@$(foreach d,$(LIBRARY_FOLDERS),echo "$(d) uses $(USES_$(d)) prefixes $(PREFIXES_$(d))";)

Q := $(if $(V),,@)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC    $<")
	$(Q)$(CC) $(CFLAGS_FULL) $(call layer_includes,$<) -c $< -o $@

# nvcc writes the object's dependencies as gcc does (-MMD -MP), so a header touched rebuilds the
# CUDA object too (tests/cli/test_build_deps.sh).
NVCC_DEPS = -MMD -MP -MF $(@:.o=.d)

$(BUILD)/obj/sgt/sgt_cuda.o: sgt/sgt_cuda.cu
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  NVCC  $<")
	$(Q)$(NVCC) $(NVCCFLAGS) $(NVCC_DEPS) $(call layer_includes,$<) -DCS_GIT_REVISION='"$(GIT_REV)"' $(MPI_CFLAGS) $(HDF5_CFLAGS) -c $< -o $@

# The CUDA extractor opens cuFFT at run time (dlopen): no link dependency on it.
$(BUILD)/obj/extract/%.o: extract/%.cu
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  NVCC  $<")
	$(Q)$(NVCC) $(NVCCFLAGS) $(NVCC_DEPS) $(call layer_includes,$<) -c $< -o $@

$(BUILD)/lib/libcybershake.a: $(OBJ_FULL) $(CUDA_OBJ)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN)/cybershake: $(OBJ_CLI) $(BUILD)/lib/libcybershake.a
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) -o $@ $(OBJ_CLI) $(BUILD)/lib/libcybershake.a $(LIBS_FULL)

$(BIN)/cs_unit_tests: $(OBJ_TEST) $(BUILD)/lib/libcybershake.a
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) -o $@ $(OBJ_TEST) $(BUILD)/lib/libcybershake.a $(LIBS_FULL)

# The SGT solver alone, for GPU machines that have CUDA, MPI and HDF5 but no SQLite, libcurl or
# PROJ: build/sgt-only/bin/cybershake with the mesh and sgt commands (box-frame inputs only).
SGTONLY_DIR := $(BUILD)/sgt-only
SGTONLY_HDF5_CFLAGS := $(SERIAL_HDF5_CFLAGS)
SGTONLY_HDF5_LIBS := $(SERIAL_HDF5_LIBS)
SGTONLY_SRC := $(COMMON_CORE) $(FORMATS_SRC) $(SGT_SRC) $(NOCUDA_SRC) $(CLI_SRC)
SGTONLY_OBJ := $(SGTONLY_SRC:%.c=$(SGTONLY_DIR)/obj/%.o)
SGTONLY_CFLAGS := $(CFLAGS_BASE) -DCS_SGT_ONLY $(MPI_CFLAGS) $(SGTONLY_HDF5_CFLAGS)

$(SGTONLY_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC    $< (sgt-only)")
	$(Q)$(CC) $(SGTONLY_CFLAGS) $(call layer_includes,$<) -c $< -o $@

$(SGTONLY_DIR)/obj/sgt/sgt_cuda.o: sgt/sgt_cuda.cu
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  NVCC  $< (sgt-only)")
	$(Q)$(NVCC) $(NVCCFLAGS) $(NVCC_DEPS) $(call layer_includes,$<) -DCS_SGT_ONLY -DCS_GIT_REVISION='"$(GIT_REV)"' $(MPI_CFLAGS) $(SGTONLY_HDF5_CFLAGS) -c $< -o $@

$(SGTONLY_DIR)/bin/cybershake: $(SGTONLY_OBJ) $(if $(NVCC),$(SGTONLY_DIR)/obj/sgt/sgt_cuda.o)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) -o $@ $^ $(SGTONLY_HDF5_LIBS) $(MPI_LIBS) $(OPENSSL_LIBS) $(CUDA_LIBS) -fopenmp -lm

sgt-only: $(SGTONLY_DIR)/bin/cybershake

# GPU kernel benchmark (needs nvcc): build/sgt-only/bin/sgt_gpu_bench
$(SGTONLY_DIR)/bin/sgt_gpu_bench: bench/sgt_gpu_bench.c $(SGTONLY_DIR)/obj/sgt/sgt_cuda.o $(filter-out %/cli/cybershake.o,$(SGTONLY_OBJ))
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(filter-out -MMD -MP,$(SGTONLY_CFLAGS)) $(ALL_INCLUDES) -o $@ $^ $(SGTONLY_HDF5_LIBS) $(MPI_LIBS) $(OPENSSL_LIBS) $(CUDA_LIBS) -fopenmp -lm

bench-gpu: $(SGTONLY_DIR)/bin/sgt_gpu_bench

# The tests also run the SGT-only build (serial HDF5: its ranks gather the output to rank 0).
test: deps
	@$(MAKE) --no-print-directory all sgt-only fuzz-build
	@sh tools/install-test-clients.sh
	@sh tests/run_all.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@sh sites/demo/run_demo.sh

format:
	clang-format -i $$(git ls-files '*.c' '*.h' '*.cu' '*.cuh')

clean:
	rm -rf $(BUILD)


# Extraction benchmark: build/bin/extract_bench (bench/extract_bench.c; docs/performance.md)
$(BIN)/extract_bench: bench/extract_bench.c bench/extract_gpu_part.c bench/extract_gpu_part.h $(BUILD)/lib/libcybershake.a
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(filter-out -MMD -MP,$(CFLAGS_FULL)) $(ALL_INCLUDES) -Ibench -o $@ bench/extract_bench.c bench/extract_gpu_part.c $(BUILD)/lib/libcybershake.a $(LIBS_FULL)

bench-extract: $(BIN)/extract_bench

# Rupture-time search benchmark: build/bin/rupture_times_bench (docs/performance.md)
$(BIN)/rupture_times_bench: bench/rupture_times_bench.c $(BUILD)/lib/libcybershake.a
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(filter-out -MMD -MP,$(CFLAGS_FULL)) $(ALL_INCLUDES) -o $@ bench/rupture_times_bench.c $(BUILD)/lib/libcybershake.a $(LIBS_FULL)

# Locating rupture points on an SGT set: build/bin/locate_bench (docs/performance.md)
$(BIN)/locate_bench: bench/locate_bench.c $(BUILD)/lib/libcybershake.a
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(filter-out -MMD -MP,$(CFLAGS_FULL)) $(ALL_INCLUDES) -o $@ bench/locate_bench.c $(BUILD)/lib/libcybershake.a $(LIBS_FULL)

# Study database benchmark: build/bin/study_rows_bench (bench/study_rows_production.sh)
$(BIN)/study_rows_bench: bench/study_rows_bench.c $(BUILD)/lib/libcybershake.a
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(filter-out -MMD -MP,$(CFLAGS_FULL)) $(ALL_INCLUDES) -o $@ $< $(BUILD)/lib/libcybershake.a $(LIBS_FULL)

bench-study: $(BIN)/study_rows_bench

# Fuzzing (docs/contributing.md): every library and the harnesses of tests/fuzz/ under
# AddressSanitizer, UndefinedBehaviorSanitizer (float-to-int overflow too) and the leak checker,
# in their own folder; the CPU back ends always (the sanitizers do not see into CUDA). The build
# also gives a sanitized build/fuzz/bin/cybershake for running a command under the sanitizers.
# tests/cli/test_fuzz.sh runs a short fixed number of inputs per harness as part of the tests;
# `make fuzz` runs FUZZ_ITERATIONS of them per harness (FUZZ_SEED picks another sequence).
FUZZ_DIR        := $(BUILD)/fuzz
FUZZ_ITERATIONS ?= 20000
FUZZ_SEED       ?= 1
FUZZ_SAN    := -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer
# gcc 12 sees false overflows in array parameters under the address sanitizer at -O1: kept as
# warnings there, errors in the normal build.
FUZZ_CFLAGS := $(filter-out $(OPT),$(CFLAGS_FULL)) -O1 -g $(FUZZ_SAN) -Wno-error=stringop-overflow
FUZZ_LIB_SRC := $(COMMON_CORE) $(COMMON_FULL) $(FORMATS_SRC) $(DB_SRC) $(SGT_SRC) $(EXTRACT_SRC) $(ERF_SRC) $(HAZARD_SRC) $(WORKFLOW_SRC) sgt/sgt_nocuda.c extract/synth_nogpu.c
FUZZ_SRC    := $(wildcard tests/fuzz/*.c)
FUZZ_OBJ    := $(FUZZ_LIB_SRC:%.c=$(FUZZ_DIR)/obj/%.o) $(FUZZ_SRC:%.c=$(FUZZ_DIR)/obj/%.o) $(FUZZ_DIR)/obj/cli/cybershake.o
FUZZ_LIBS   := $(FULL_LIBS) $(HDF5_LIBS) $(MPI_LIBS) $(OPENSSL_LIBS) -fopenmp -lm

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC    $< (fuzz)")
	$(Q)$(CC) $(FUZZ_CFLAGS) $(call layer_includes,$<) -c $< -o $@

$(FUZZ_DIR)/lib/libcybershake.a: $(FUZZ_LIB_SRC:%.c=$(FUZZ_DIR)/obj/%.o)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(FUZZ_DIR)/bin/cs_fuzz: $(FUZZ_SRC:%.c=$(FUZZ_DIR)/obj/%.o) $(FUZZ_DIR)/lib/libcybershake.a
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(FUZZ_SAN) -o $@ $(FUZZ_SRC:%.c=$(FUZZ_DIR)/obj/%.o) $(FUZZ_DIR)/lib/libcybershake.a $(FUZZ_LIBS)

$(FUZZ_DIR)/bin/cybershake: $(FUZZ_DIR)/obj/cli/cybershake.o $(FUZZ_DIR)/lib/libcybershake.a
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(FUZZ_SAN) -o $@ $< $(FUZZ_DIR)/lib/libcybershake.a $(FUZZ_LIBS)

fuzz-build: $(FUZZ_DIR)/bin/cs_fuzz $(FUZZ_DIR)/bin/cybershake

fuzz: fuzz-build
	$(FUZZ_DIR)/bin/cs_fuzz --repo . --crashes $(FUZZ_DIR)/crashes --seed $(FUZZ_SEED) --iterations $(FUZZ_ITERATIONS) $(FUZZ_HARNESSES)

# The objects' header dependencies, read last: a list defined further down is empty where it is
# read (the fuzz objects' were, so a changed header left them stale: a struct that grew
# overflowed in a harness compiled against the old one).
-include $(OBJ_FULL:.o=.d) $(OBJ_CLI:.o=.d) $(OBJ_TEST:.o=.d) $(SGTONLY_OBJ:.o=.d) $(FUZZ_OBJ:.o=.d)
-include $(BUILD)/obj/sgt/sgt_cuda.d $(SGTONLY_DIR)/obj/sgt/sgt_cuda.d $(CUDA_EXTRACT_OBJ:.o=.d)

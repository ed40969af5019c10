# cybershake: one Makefile for the whole toolkit.
#   make            build everything this machine can build (CUDA parts when nvcc is present)
#   make demo       install missing Debian packages, build, run the demo site
#   make test       install missing Debian packages, build, run every test
#   make sgt-only   the SGT solver alone, from CUDA, MPI and HDF5 (for GPU machines)
#   make format     clang-format every C and CUDA file

BUILD   ?= build
CC      ?= gcc
NVCC    ?= $(shell command -v nvcc 2>/dev/null || { test -x /usr/local/cuda/bin/nvcc && echo /usr/local/cuda/bin/nvcc; })
CUDA_ARCH ?= sm_90

GIT_REV := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)

MPI_CFLAGS  := $(shell mpicc --showme:compile 2>/dev/null)
MPI_LIBS    := $(shell mpicc --showme:link 2>/dev/null)
# The full build takes parallel HDF5 (Open MPI's) even where the serial one is installed too.
HDF5_CFLAGS := $(shell pkg-config --cflags hdf5-openmpi 2>/dev/null || pkg-config --cflags hdf5 2>/dev/null || pkg-config --cflags hdf5-serial 2>/dev/null)
HDF5_LIBS   := $(shell pkg-config --libs hdf5-openmpi 2>/dev/null || pkg-config --libs hdf5 2>/dev/null || pkg-config --libs hdf5-serial 2>/dev/null)
HAVE_OPENSSL := $(shell printf '\#include <openssl/evp.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo 1)

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter -Wno-format-truncation
CSTD    := -std=c11 -D_GNU_SOURCE
OPT     ?= -O3 -g
ARCH    ?= -march=native
INCLUDES := -Icommon -Idb -Isgt -Ierf -Iextract -Ihazard -Iworkflow -Icli
CFLAGS_BASE := $(CSTD) $(OPT) $(ARCH) $(WARN) -fopenmp $(INCLUDES) -DCS_GIT_REVISION='"$(GIT_REV)"' -MMD -MP
ifeq ($(HAVE_OPENSSL),1)
CFLAGS_BASE += -DCS_HAVE_OPENSSL
OPENSSL_LIBS := -lcrypto
endif

FULL_PKGS := sqlite3 libcurl proj fftw3 cairo
FULL_CFLAGS := $(shell pkg-config --cflags $(FULL_PKGS) 2>/dev/null)
FULL_LIBS   := $(shell pkg-config --libs $(FULL_PKGS) 2>/dev/null)

# Sources: shared code, then one list per stage.
COMMON_CORE := common/cs_error.c common/cs_log.c common/cs_strutil.c common/cs_units.c \
               common/cs_params.c common/cs_csv.c common/cs_sha256.c common/cs_atomic.c \
               common/cs_progress.c common/cs_cli.c common/cs_hdf5.c common/cs_lines.c \
               common/cs_rng.c common/cs_mpi_main.c
COMMON_FULL := common/cs_geo.c
DB_SRC      := db/cs_db.c db/cs_db_schema.c db/cs_sites.c db/cs_db_cli.c
EXTRACT_SRC := extract/srf.c extract/rupgen.c extract/sgt_set.c extract/synth.c extract/im.c \
               extract/extract_rupture.c extract/seis_file.c extract/sac.c extract/extract_study.c \
               extract/extract_run.c \
               extract/extract_cli.c
ERF_SRC     := erf/erf_rupture.c erf/erf_distance.c erf/erf_geometry.c erf/erf_faults.c erf/erf_db.c erf/erf_medium.c \
               erf/erf_cli.c erf/area_cli.c erf/erf_area.c erf/site_plan.c erf/plan_cli.c
HAZARD_SRC  := hazard/hazard_curve.c hazard/hazard_db.c hazard/hazard_plot.c hazard/gmpe.c \
               hazard/peer.c hazard/disagg.c hazard/hazard_cli.c \
               hazard/peer_cli.c hazard/disagg_cli.c hazard/site_level.c hazard/map_cli.c \
               hazard/uhs_cli.c hazard/gmpe_curve_cli.c hazard/forecast.c hazard/gmpe_cy14.c
WORKFLOW_SRC := workflow/wf_config.c workflow/wf_plan.c workflow/wf_db.c workflow/wf_exec.c \
               workflow/wf_run.c workflow/wf_slurm.c workflow/wf_summary.c workflow/wf_stage.c \
               workflow/wf_cli.c workflow/stage_cli.c workflow/check_cli.c
SGT_SRC     := sgt/sgt_model.c sgt/sgt_q.c sgt/sgt_state.c sgt/sgt_cpu.c sgt/sgt_absorb.c sgt/sgt_pml.c \
               sgt/sgt_source.c sgt/sgt_points.c sgt/sgt_mesh.c sgt/sgt_effective.c sgt/sgt_config.c \
               sgt/sgt_checks.c sgt/sgt_output.c sgt/sgt_run.c sgt/sgt_cli.c \
               sgt/sgt_comm.c sgt/sgt_step.c sgt/sgt_checkpoint.c
CLI_SRC     := cli/cybershake.c

# The CUDA back end when nvcc is there, otherwise a stub that says the build has none.
ifneq ($(NVCC),)
CUDA_HOME ?= $(patsubst %/bin/,%,$(dir $(realpath $(NVCC))))
CUDA_OBJ  := $(BUILD)/obj/sgt/sgt_cuda.o
CUDA_LIBS := -L$(CUDA_HOME)/lib64 -L$(CUDA_HOME)/targets/x86_64-linux/lib -lcudart_static -ldl -lrt -lpthread -lstdc++
NOCUDA_SRC :=
else
CUDA_OBJ  :=
CUDA_LIBS :=
NOCUDA_SRC := sgt/sgt_nocuda.c
endif
NVCCFLAGS ?= -O3 -std=c++17 -gencode=arch=compute_90,code=[sm_90,compute_90] --Werror all-warnings \
             -Xcompiler -Wall,-Wno-unused-parameter,-Wno-unused-function,-fopenmp $(NVCC_EXTRA)

FULL_SRC := $(COMMON_CORE) $(COMMON_FULL) $(DB_SRC) $(SGT_SRC) $(EXTRACT_SRC) $(ERF_SRC) $(HAZARD_SRC) $(WORKFLOW_SRC) $(NOCUDA_SRC)
TEST_SRC := $(wildcard tests/unit/*.c)

OBJ_FULL := $(FULL_SRC:%.c=$(BUILD)/obj/%.o)
OBJ_CLI  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
OBJ_TEST := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)

CFLAGS_FULL := $(CFLAGS_BASE) -DCS_HAVE_PROJ $(MPI_CFLAGS) $(HDF5_CFLAGS) $(FULL_CFLAGS)
LIBS_FULL   := $(FULL_LIBS) $(HDF5_LIBS) $(MPI_LIBS) $(OPENSSL_LIBS) $(CUDA_LIBS) -fopenmp -lm

BIN := $(BUILD)/bin

.PHONY: all deps test demo clean format sgt-only bench-gpu bench-extract
all: $(BIN)/cybershake $(BIN)/cs_unit_tests

deps:
	@sh tools/install-deps.sh

Q := $(if $(V),,@)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC    $<")
	$(Q)$(CC) $(CFLAGS_FULL) -c $< -o $@

$(BUILD)/obj/sgt/sgt_cuda.o: sgt/sgt_cuda.cu sgt/sgt_cuda_tiled.cuh sgt/sgt_gpu_rows.h sgt/sgt_stencil.h sgt/sgt_state.h sgt/sgt_run.h
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  NVCC  $<")
	$(Q)$(NVCC) $(NVCCFLAGS) $(INCLUDES) -DCS_GIT_REVISION='"$(GIT_REV)"' $(MPI_CFLAGS) $(HDF5_CFLAGS) -c $< -o $@

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
SGTONLY_HDF5_CFLAGS := $(shell pkg-config --cflags hdf5-serial 2>/dev/null || pkg-config --cflags hdf5 2>/dev/null || (test -d /usr/include/hdf5/serial && echo -I/usr/include/hdf5/serial))
SGTONLY_HDF5_LIBS := $(shell pkg-config --libs hdf5-serial 2>/dev/null || pkg-config --libs hdf5 2>/dev/null || (test -d /usr/lib/x86_64-linux-gnu/hdf5/serial && echo -L/usr/lib/x86_64-linux-gnu/hdf5/serial -lhdf5) || echo -lhdf5)
SGTONLY_SRC := $(COMMON_CORE) $(SGT_SRC) $(NOCUDA_SRC) $(CLI_SRC)
SGTONLY_OBJ := $(SGTONLY_SRC:%.c=$(SGTONLY_DIR)/obj/%.o)
SGTONLY_CFLAGS := $(CFLAGS_BASE) -DCS_SGT_ONLY $(MPI_CFLAGS) $(SGTONLY_HDF5_CFLAGS)

$(SGTONLY_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC    $< (sgt-only)")
	$(Q)$(CC) $(SGTONLY_CFLAGS) -c $< -o $@

$(SGTONLY_DIR)/obj/sgt/sgt_cuda.o: sgt/sgt_cuda.cu sgt/sgt_cuda_tiled.cuh sgt/sgt_gpu_rows.h sgt/sgt_stencil.h sgt/sgt_state.h sgt/sgt_run.h
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  NVCC  $< (sgt-only)")
	$(Q)$(NVCC) $(NVCCFLAGS) $(INCLUDES) -DCS_SGT_ONLY -DCS_GIT_REVISION='"$(GIT_REV)"' $(MPI_CFLAGS) $(SGTONLY_HDF5_CFLAGS) -c $< -o $@

$(SGTONLY_DIR)/bin/cybershake: $(SGTONLY_OBJ) $(if $(NVCC),$(SGTONLY_DIR)/obj/sgt/sgt_cuda.o)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) -o $@ $^ $(SGTONLY_HDF5_LIBS) $(MPI_LIBS) $(OPENSSL_LIBS) $(CUDA_LIBS) -fopenmp -lm

sgt-only: $(SGTONLY_DIR)/bin/cybershake

# GPU kernel benchmark (needs nvcc): build/sgt-only/bin/sgt_gpu_bench
$(SGTONLY_DIR)/bin/sgt_gpu_bench: bench/sgt_gpu_bench.c $(SGTONLY_DIR)/obj/sgt/sgt_cuda.o $(filter-out %/cli/cybershake.o,$(SGTONLY_OBJ))
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(filter-out -MMD -MP,$(SGTONLY_CFLAGS)) -o $@ $^ $(SGTONLY_HDF5_LIBS) $(MPI_LIBS) $(OPENSSL_LIBS) $(CUDA_LIBS) -fopenmp -lm

bench-gpu: $(SGTONLY_DIR)/bin/sgt_gpu_bench

# The tests also run the SGT-only build (serial HDF5: its ranks gather the output to rank 0).
test: deps
	@$(MAKE) --no-print-directory all sgt-only
	@sh tests/run_all.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@sh sites/demo/run_demo.sh

format:
	clang-format -i $$(git ls-files '*.c' '*.h' '*.cu' '*.cuh')

clean:
	rm -rf $(BUILD)

-include $(OBJ_FULL:.o=.d) $(OBJ_CLI:.o=.d) $(OBJ_TEST:.o=.d) $(SGTONLY_OBJ:.o=.d)

# Extraction benchmark: build/bin/extract_bench (bench/extract_bench.c; docs/performance.md)
$(BIN)/extract_bench: bench/extract_bench.c $(BUILD)/lib/libcybershake.a
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  LINK  $@")
	$(Q)$(CC) $(filter-out -MMD -MP,$(CFLAGS_FULL)) -o $@ $< $(BUILD)/lib/libcybershake.a $(LIBS_FULL)

bench-extract: $(BIN)/extract_bench

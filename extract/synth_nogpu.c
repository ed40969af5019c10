/* Builds without nvcc have no CUDA extractor; --backend cuda then says so. */
#include "synth_gpu.h"

static int none(cs_error *err) {
    return cs_error_set(err, CS_ERR_INPUT,
                        "this build has no CUDA extractor (nvcc was not found when it was built)");
}

int synth_gpu_available(cs_error *err) {
    return none(err);
}

int synth_gpu_open(synth_gpu **g, int device, const synth_gpu_shape *shape, long block, int batch,
                   long points, cs_error *err) {
    (void)device, (void)shape, (void)block, (void)batch, (void)points;
    *g = NULL;
    return none(err);
}

void synth_gpu_close(synth_gpu *g) {
    (void)g;
}

double synth_gpu_bytes(const synth_gpu_shape *shape, long block, int batch, long points) {
    (void)shape, (void)block, (void)batch, (void)points;
    return 0;
}

double synth_gpu_free_bytes(int device, int ranks) {
    (void)device, (void)ranks;
    return -1;
}

const char *synth_gpu_device_name(const synth_gpu *g) {
    (void)g;
    return "";
}

long synth_gpu_rows(const synth_gpu *g, int series) {
    (void)g, (void)series;
    return 0;
}

long synth_gpu_block(const synth_gpu *g) {
    (void)g;
    return 0;
}

int synth_gpu_batch(const synth_gpu *g) {
    (void)g;
    return 0;
}

int synth_gpu_load(synth_gpu *g, long row0, long nq, const float *strain, const double *m6,
                   cs_error *err) {
    (void)g, (void)row0, (void)nq, (void)strain, (void)m6;
    return none(err);
}

int synth_gpu_load_rows(synth_gpu *g, const long *rows, long nq, const float *strain,
                        const double *m6, cs_error *err) {
    (void)g, (void)rows, (void)nq, (void)strain, (void)m6;
    return none(err);
}

void synth_gpu_forget(synth_gpu *g) {
    (void)g;
}

int synth_gpu_begin(synth_gpu *g, int nb, cs_error *err) {
    (void)g, (void)nb;
    return none(err);
}

int synth_gpu_stage(synth_gpu *g, int b, const synth_gpu_subfault *sf, long n, cs_error *err) {
    (void)g, (void)b, (void)sf, (void)n;
    return none(err);
}

int synth_gpu_accumulate(synth_gpu *g, cs_error *err) {
    (void)g;
    return none(err);
}

void synth_gpu_set_sum_runs(synth_gpu *g, int runs) {
    (void)g, (void)runs;
}

int synth_gpu_set_times(synth_gpu *g, const synth_gpu_times_rupture *r, int nr, double window_end,
                        cs_error *err) {
    (void)g, (void)r, (void)nr, (void)window_end;
    return none(err);
}

int synth_gpu_times_on(const synth_gpu *g) {
    (void)g;
    return 0;
}

int synth_gpu_stage_times(synth_gpu *g, int b, int rupture, int real, int hypo_point,
                          cs_error *err) {
    (void)g, (void)b, (void)rupture, (void)real, (void)hypo_point;
    return none(err);
}

int synth_gpu_set_measures(synth_gpu *g, const synth_gpu_measures *m, cs_error *err) {
    (void)g, (void)m;
    return none(err);
}

double synth_gpu_measures_bytes(const synth_gpu_shape *shape, int batch,
                                const synth_gpu_measures *m) {
    (void)shape, (void)batch, (void)m;
    return 0;
}

int synth_gpu_records(synth_gpu *g, int nb, double *vel, int slot, cs_error *err) {
    (void)g, (void)nb, (void)vel, (void)slot;
    return none(err);
}

int synth_gpu_wait(synth_gpu *g, int slot, int nb, double *values, cs_error *err) {
    (void)g, (void)slot, (void)nb, (void)values;
    return none(err);
}

double *synth_gpu_record_buffer(synth_gpu *g) {
    (void)g;
    return NULL;
}

void *synth_gpu_host_alloc(size_t bytes) {
    (void)bytes;
    return NULL;
}

void synth_gpu_host_free(void *p) {
    (void)p;
}

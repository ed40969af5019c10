/* cuFFT through dlopen (cufft_dl.cuh). */
#include "cufft_dl.cuh"

#include <dlfcn.h>

typedef cufftResult (*plan_many_fn)(cufftHandle *, int, int *, int *, int, int, int *, int, int,
                                    cufftType, int);
typedef cufftResult (*exec_d2z_fn)(cufftHandle, cufftDoubleReal *, cufftDoubleComplex *);
typedef cufftResult (*exec_z2d_fn)(cufftHandle, cufftDoubleComplex *, cufftDoubleReal *);
typedef cufftResult (*destroy_fn)(cufftHandle);
typedef cufftResult (*set_stream_fn)(cufftHandle, cudaStream_t);

static struct {
    void *lib;
    plan_many_fn plan_many;
    exec_d2z_fn d2z;
    exec_z2d_fn z2d;
    destroy_fn destroy;
    set_stream_fn set_stream;
} fft;

int cufft_dl_open(cs_error *err) {
    if (fft.lib) return 0;
    static const char *names[] = {"libcufft.so.12", "libcufft.so.13", "libcufft.so.11",
                                  "libcufft.so"};
    for (const char *n : names)
        if ((fft.lib = dlopen(n, RTLD_NOW | RTLD_LOCAL))) break;
    if (!fft.lib)
        return cs_error_set(err, CS_ERR_RESOURCE,
                            "cannot open cuFFT (libcufft.so.12): %s; add the CUDA toolkit's lib64 "
                            "to LD_LIBRARY_PATH",
                            dlerror());
    fft.plan_many = (plan_many_fn)dlsym(fft.lib, "cufftPlanMany");
    fft.d2z = (exec_d2z_fn)dlsym(fft.lib, "cufftExecD2Z");
    fft.z2d = (exec_z2d_fn)dlsym(fft.lib, "cufftExecZ2D");
    fft.destroy = (destroy_fn)dlsym(fft.lib, "cufftDestroy");
    fft.set_stream = (set_stream_fn)dlsym(fft.lib, "cufftSetStream");
    if (!fft.plan_many || !fft.d2z || !fft.z2d || !fft.destroy || !fft.set_stream) {
        dlclose(fft.lib);
        fft.lib = NULL;
        return cs_error_set(err, CS_ERR_RESOURCE,
                            "cuFFT lacks cufftPlanMany/ExecD2Z/ExecZ2D/SetStream");
    }
    return 0;
}

void cufft_dl_plan_free(cufft_dl_plan *p) {
    if (p->made) fft.destroy(p->h);
    p->made = 0;
}

int cufft_dl_plan_for(cufft_dl_plan *p, int n, int batch, cufftType type, cudaStream_t stream,
                      cs_error *err) {
    if (p->made && p->n == n && p->batch == batch && p->type == type && p->stream == stream)
        return 0;
    cufft_dl_plan_free(p);
    int len = n;
    cufftResult r = fft.plan_many(&p->h, 1, &len, NULL, 1, 0, NULL, 1, 0, type, batch);
    if (r != CUFFT_SUCCESS)
        return cs_error_set(err, CS_ERR_RESOURCE, "cufftPlanMany(%d x %d) failed: cuFFT error %d",
                            batch, n, (int)r);
    p->made = 1;
    if (stream && (r = fft.set_stream(p->h, stream)) != CUFFT_SUCCESS) {
        cufft_dl_plan_free(p);
        return cs_error_set(err, CS_ERR_RESOURCE, "cufftSetStream failed: cuFFT error %d", (int)r);
    }
    p->n = n;
    p->batch = batch;
    p->type = type;
    p->stream = stream;
    return 0;
}

int cufft_dl_d2z(const cufft_dl_plan *p, double *in, cufftDoubleComplex *out, cs_error *err) {
    cufftResult r = fft.d2z(p->h, in, out);
    if (r != CUFFT_SUCCESS)
        return cs_error_set(err, CS_ERR_RESOURCE, "cufftExecD2Z (%d x %d) failed: cuFFT error %d",
                            p->batch, p->n, (int)r);
    return 0;
}

int cufft_dl_z2d(const cufft_dl_plan *p, cufftDoubleComplex *in, double *out, cs_error *err) {
    cufftResult r = fft.z2d(p->h, in, out);
    if (r != CUFFT_SUCCESS)
        return cs_error_set(err, CS_ERR_RESOURCE, "cufftExecZ2D (%d x %d) failed: cuFFT error %d",
                            p->batch, p->n, (int)r);
    return 0;
}

int cufft_dl_plans_for(cufft_dl_plans *ps, int n, int nb, int most, int unit, cufftType type,
                       cudaStream_t stream, cufft_dl_plan **plan, cs_error *err) {
    if (nb < 1 || nb > most || most > 1 << (CUFFT_DL_SIZES - 1))
        return cs_error_set(err, CS_ERR_INTERNAL, "a plan for %d of at most %d batches", nb, most);
    int k = 0, r = 1;
    while (r < nb)
        r *= 2, k++;
    CS_CALL(err, cufft_dl_plan_for(&ps->p[k], n, (r < most ? r : most) * unit, type, stream, err));
    *plan = &ps->p[k];
    return 0;
}

void cufft_dl_plans_free(cufft_dl_plans *ps) {
    for (cufft_dl_plan &p : ps->p)
        cufft_dl_plan_free(&p);
}

/* The tuned build inside an emitted .cu. nvcc and NVRTC do not always
 * build one source alike (nvcc keeps shared-memory addresses in 32 bits
 * where NVRTC takes 64; the same reduce point took 59 registers under
 * nvcc and 53 under NVRTC), and a bound that holds nvcc to the tuned
 * registers changes its schedule (i8 19194x22735 on an H200: 77.2% of
 * the copy bounded, 80.2% unbounded, 79.7% as tuned). So a file emitted
 * from a tune carries the cubin the tune timed and checked, and its
 * launches run that on devices of its architecture: the code a user
 * links is the code whose time the file reports (docs/PERFORMANCE.md,
 * "The tuned cubin in the file"). Elsewhere, or built with
 * -DAT_FROM_SOURCE, the kernel in the file as nvcc builds it, held to
 * the tuned build's occupancy by the bounds below (AT_MIN_BLOCKS,
 * AT_MAX_REGS). */
#include "emit.h"

#include <stdio.h>
#include <string.h>

#include "occupancy.h"

/* The bounds that hold nvcc's build to the tuned one's registers. */
int at_emit_max_regs(const at_problem *p, const at_point *pt,
                     int min_blocks, int regs)
{
    if (min_blocks < 2 || regs <= 0)
        return 0;
    at_launch l;
    memset(&l, 0, sizeof l);
    p->family->ops.launch(p, pt, &l);
    const int threads = (int)(l.block[0] * l.block[1] * l.block[2]);
    return at_occupancy_bound_regs(threads, min_blocks) >
                   at_occupancy_alloc_regs(regs)
               ? regs
               : 0;
}

const char *at_emit_bounds_text(const at_problem *p, const at_point *pt,
                                int min_blocks, int regs)
{
    if (regs <= 0)
        return "AT_MIN_BLOCKS asks nvcc for as many (__launch_bounds__)";
    if (at_emit_max_regs(p, pt, min_blocks, regs))
        return "AT_MAX_REGS holds nvcc to those registers (__maxnreg__, "
               "CUDA 12.4 and later; before, AT_MIN_BLOCKS asks for as "
               "many blocks)";
    return "AT_MIN_BLOCKS holds nvcc to those registers (__launch_bounds__ "
           "leaves no more)";
}

void at_emit_launch_helpers(FILE *f)
{
    fputs(
        "\n/* Launches (autotune): at_launch_tuned runs at_tuned_kernel(k),\n"
        " * the tuned cubin's kernel where this file holds one and the\n"
        " * device is of its architecture (see the end of the file), else\n"
        " * k as nvcc built it. */\n"
        "static const void *at_tuned_kernel(const void *k);\n"
        "template <typename... P>\n"
        "static cudaError_t at_launch_as(const void *fn, dim3 grid,\n"
        "    dim3 block, size_t smem, cudaStream_t stream, P... a)\n"
        "{\n"
        "    void *args[] = {(void *)&a...};\n"
        "    return cudaLaunchKernel(fn, grid, block, args, smem, stream);\n"
        "}\n"
        "template <typename... P, typename... A>\n"
        "static cudaError_t at_launch_tuned(void (*k)(P...), dim3 grid,\n"
        "    dim3 block, size_t smem, cudaStream_t stream, A... a)\n"
        "{\n"
        "    const void *fn = at_tuned_kernel((const void *)k);\n"
        "    if (fn != (const void *)k && smem > 48 * 1024) {\n"
        "        cudaError_t err = cudaFuncSetAttribute(fn,\n"
        "            cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);\n"
        "        if (err != cudaSuccess)\n"
        "            return err;\n"
        "    }\n"
        "    return at_launch_as<P...>(fn, grid, block, smem, stream,\n"
        "                              static_cast<P>(a)...);\n"
        "}\n",
        f);
}

/* The cubin's kernel name goes into a string literal: a symbol's
 * characters only (a C name, or a C++ one mangled). */
static int symbol_ok(const char *s)
{
    size_t n = strnlen(s, 256);
    if (n == 0 || n > 255)
        return 0;
    for (size_t i = 0; i < n; ++i)
        if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') ||
              (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9')))
            return 0;
    return 1;
}

/* Past this a file would grow by tens of megabytes: nvcc's build. */
#define AT_EMBED_MAX ((size_t)8 << 20)

int at_emit_embeds_cubin(const at_provenance *pv)
{
    return pv && pv->cubin && pv->cubin_size > 0 &&
           pv->cubin_size <= AT_EMBED_MAX && symbol_ok(pv->cubin_kernel) &&
           pv->cubin_sm > 0;
}

void at_emit_tuned_line(FILE *f, const at_provenance *pv)
{
    if (!at_emit_embeds_cubin(pv))
        return;
    char text[400];
    snprintf(text, sizeof text, "the sm_%d cubin the tune timed and "
             "checked (%zu bytes, at the end of this file): launches on "
             "sm_%d devices "
             "run it; elsewhere, or built with -DAT_FROM_SOURCE, the "
             "kernel above as nvcc builds it", pv->cubin_sm, pv->cubin_size,
             pv->cubin_sm);
    at_emit_line(f, "runs:", text);
}

static void bytes_c(FILE *f, const unsigned char *b, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        fprintf(f, "%u,%s", b[i], i % 24 == 23 || i + 1 == n ? "\n" : "");
}

void at_emit_tuned_build(FILE *f, const at_provenance *pv, const char *name)
{
    if (!at_emit_embeds_cubin(pv)) {
        fputs("\n/* No tuned cubin in this file: launches run the kernels "
              "as nvcc builds them. */\n"
              "static const void *at_tuned_kernel(const void *k)\n"
              "{\n    return k;\n}\n",
              f);
        if (name)
            fprintf(f, "\n/* 1 where launches on the current device run "
                    "the tuned cubin: none here. */\n"
                    "extern \"C\" int %s_runs_tuned_cubin(void)\n"
                    "{\n    return 0;\n}\n", name);
        return;
    }
    fprintf(f,
            "\n/* ---- the tuned build (autotune) ---- */\n"
            "#if !defined(AT_FROM_SOURCE) && CUDART_VERSION >= 12000\n"
            "#include <atomic>\n#include <mutex>\n\n"
            "/* The cubin NVRTC built for sm_%d, which the tune timed and "
            "checked\n * (its kernel %s). */\n"
            "static const unsigned char %s_cubin[%zu] = {\n",
            pv->cubin_sm, pv->cubin_kernel, name, pv->cubin_size);
    bytes_c(f, pv->cubin, pv->cubin_size);
    fprintf(f,
            "};\n\n"
            "/* For %s_kernel on the current device: the cubin's kernel on "
            "an sm_%d\n * device that loads it (asked once a device, "
            "devices 0 to 63), else k. */\n"
            "static const void *at_tuned_kernel(const void *k)\n{\n"
            "    static std::atomic<int> known[64]; /* 1 the cubin, 2 k */\n"
            "    static std::once_flag once;\n"
            "    static cudaKernel_t tuned = NULL;\n"
            "    int dev = 0;\n"
            "    if (k != (const void *)%s_kernel ||\n"
            "        cudaGetDevice(&dev) != cudaSuccess || dev < 0 || "
            "dev >= 64)\n"
            "        return k; /* a failure here fails the launch too */\n"
            "    int use = known[dev].load();\n"
            "    if (use == 0) {\n"
            "        int major = 0, minor = 0;\n"
            "        bool failed = false;\n"
            "        use = 2;\n"
            "        if (cudaDeviceGetAttribute(&major,\n"
            "                cudaDevAttrComputeCapabilityMajor, dev) != "
            "cudaSuccess ||\n"
            "            cudaDeviceGetAttribute(&minor,\n"
            "                cudaDevAttrComputeCapabilityMinor, dev) != "
            "cudaSuccess)\n"
            "            failed = true;\n"
            "        else if (major * 10 + minor == %d) {\n"
            "            /* Loading is allowed while another stream of this "
            "thread\n"
            "             * is being captured into a graph. */\n"
            "            cudaStreamCaptureMode mode = "
            "cudaStreamCaptureModeRelaxed;\n"
            "            cudaThreadExchangeStreamCaptureMode(&mode);\n"
            "            std::call_once(once, [] {\n"
            "                cudaLibrary_t lib;\n"
            "                if (cudaLibraryLoadData(&lib, %s_cubin, NULL, "
            "NULL, 0,\n"
            "                        NULL, NULL, 0) != cudaSuccess ||\n"
            "                    cudaLibraryGetKernel(&tuned, lib, \"%s\") "
            "!=\n"
            "                        cudaSuccess)\n"
            "                    tuned = NULL;\n"
            "            });\n"
            "            /* Loaded into this device's context here, so a "
            "driver that\n"
            "             * cannot run it gives the source kernel, not a "
            "failed launch. */\n"
            "            cudaFuncAttributes attr;\n"
            "            if (tuned && cudaFuncGetAttributes(&attr,\n"
            "                             (const void *)tuned) == "
            "cudaSuccess)\n"
            "                use = 1;\n"
            "            else\n"
            "                failed = true;\n"
            "            cudaThreadExchangeStreamCaptureMode(&mode);\n"
            "        }\n"
            "        if (failed) /* answered by the source kernel: no "
            "error */\n"
            "            (void)cudaGetLastError();\n"
            "        known[dev].store(use);\n"
            "    }\n"
            "    return use == 1 ? (const void *)tuned : k;\n"
            "}\n"
            "#else\n"
            "static const void *at_tuned_kernel(const void *k)\n"
            "{\n    return k;\n}\n"
            "#endif\n\n"
            "/* 1 where launches on the current device run the tuned cubin, "
            "0 where\n * they run the kernel as nvcc built it. */\n"
            "extern \"C\" int %s_runs_tuned_cubin(void)\n{\n"
            "    return at_tuned_kernel((const void *)%s_kernel) !=\n"
            "           (const void *)%s_kernel;\n}\n",
            name, pv->cubin_sm, name, pv->cubin_sm, name, pv->cubin_kernel,
            name, name, name);
}

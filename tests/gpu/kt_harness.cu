// A user's harness for an emitted spec kernel (tests/gpu/kt_examples.sh):
// linked with the .cu autotune emitted, it calls the launcher as a user
// would (through NAME_argv, XC_LAUNCHER at build time) on the data
// `autotune kernel SPEC --data DIR` wrote (DIR/manifest.txt, in.bin,
// ref.bin: the inputs the tuner made, and its reference's outputs), and
// checks each output by the spec's rule. Then it times the launcher back
// to back (samples of at least 1 ms, median). Knows nothing of specs.
//   usage: harness DIR [SAMPLES]   (prints one result line, exit 0 if
//                                   every output is right)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>

#include <cuda_runtime.h>

#ifndef XC_LAUNCHER
#error "build with -DXC_LAUNCHER=autotune_NAME_argv"
#endif
extern "C" cudaError_t XC_LAUNCHER(void *const *args, cudaStream_t stream);

#define OK(x)                                                                \
    do {                                                                     \
        cudaError_t r_ = (x);                                                \
        if (r_ != cudaSuccess) {                                             \
            std::fprintf(stderr, "%s: %s (%d) at line %d\n", #x,             \
                         cudaGetErrorString(r_), (int)r_, __LINE__);         \
            std::exit(1);                                                    \
        }                                                                    \
    } while (0)

struct param {
    std::string kind, name, dir;
    size_t bytes = 0, in_off = 0, out_off = 0;
    void *dev = nullptr;               // a buffer's
    std::vector<unsigned char> host;   // a constant's contents
    const void *ptr = nullptr;         // what args[i] points to
    long long ll = 0;
    double real = 0;
};

struct check {
    std::string name, rule;
    int elem = 4, fp = 0;
    double atol = 0, rtol = 0;
    long long budget = 0;
};

static std::vector<unsigned char> slurp(const std::string &path)
{
    FILE *f = std::fopen(path.c_str(), "rb");
    if (!f) {
        std::fprintf(stderr, "cannot read %s\n", path.c_str());
        std::exit(1);
    }
    std::vector<unsigned char> v;
    unsigned char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0)
        v.insert(v.end(), buf, buf + n);
    std::fclose(f);
    return v;
}

static void read_manifest(const std::string &dir, std::vector<param> &ps,
                          std::vector<check> &cs)
{
    FILE *f = std::fopen((dir + "/manifest.txt").c_str(), "r");
    if (!f) {
        std::fprintf(stderr, "no manifest in %s\n", dir.c_str());
        std::exit(1);
    }
    char line[1024], a[256], b[256], c[256], d[64], e2[64], g[64];
    while (std::fgets(line, sizeof line, f)) {
        param p;
        check k;
        if (std::sscanf(line, "param buffer %255s %255s %zu %63s %63s", a, b,
                        &p.bytes, d, e2) == 5) {
            p.kind = "buffer";
            p.name = a;
            p.dir = b;
            p.in_off = d[0] == '-' ? 0 : std::strtoull(d, nullptr, 10);
            p.out_off = e2[0] == '-' ? 0 : std::strtoull(e2, nullptr, 10);
            ps.push_back(p);
        } else if (std::sscanf(line, "param constant %255s %zu %zu", a,
                               &p.bytes, &p.in_off) == 3) {
            p.kind = "constant";
            p.name = a;
            ps.push_back(p);
        } else if (std::sscanf(line, "param size %255s %lld", a, &p.ll) == 2) {
            p.kind = "int";
            p.name = a;
            ps.push_back(p);
        } else if (std::sscanf(line, "param scalar %255s %255s %255s", a, b,
                               c) == 3) {
            p.kind = std::strcmp(b, "real") == 0 ? "real" : "int";
            p.name = a;
            p.ll = std::strtoll(c, nullptr, 10);
            p.real = std::strtod(c, nullptr);
            ps.push_back(p);
        } else if (std::sscanf(line, "check %255s %d %63s", a, &k.elem, g) ==
                   3) {
            k.name = a;
            k.rule = g;
            const char *rest = std::strstr(line, g) + std::strlen(g);
            if (k.rule == "exact")
                std::sscanf(rest, "%lld", &k.budget);
            else if (k.rule == "tol")
                std::sscanf(rest, "%d %lf %lf %lld", &k.fp, &k.atol, &k.rtol,
                            &k.budget);
            else
                std::sscanf(rest, "%d %lf %lf", &k.fp, &k.atol, &k.rtol);
            cs.push_back(k);
        }
    }
    std::fclose(f);
}

static double lane(const unsigned char *x, int fp)
{
    if (fp == 4) {
        float v;
        std::memcpy(&v, x, 4);
        return v;
    }
    double v;
    std::memcpy(&v, x, 8);
    return v;
}

// Elements of an output that break its rule (a sum: 0 or 1).
static long long judge(const check &k, const unsigned char *got,
                       const unsigned char *want, size_t bytes, double *sum,
                       double *rsum)
{
    if (k.rule == "sum") {
        long double s = 0, r = 0;
        for (size_t i = 0; i + k.fp <= bytes; i += k.fp) {
            s += lane(got + i, k.fp);
            r += lane(want + i, k.fp);
        }
        *sum = (double)s;
        *rsum = (double)r;
        return !(std::fabs((double)(s - r)) <= k.atol + k.rtol * std::fabs((double)r));
    }
    long long bad = 0;
    for (size_t e = 0; e + k.elem <= bytes; e += k.elem) {
        bool ok = std::memcmp(got + e, want + e, k.elem) == 0;
        if (!ok && k.rule == "tol") { // every lane within the tolerance
            ok = true;
            for (int l = 0; ok && l < k.elem / k.fp; ++l) {
                double g = lane(got + e + l * k.fp, k.fp);
                double w = lane(want + e + l * k.fp, k.fp);
                ok = (g != g && w != w) ||
                     std::fabs(g - w) <= k.atol + k.rtol * std::fabs(w);
            }
        }
        bad += !ok;
    }
    return bad;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s DIR [SAMPLES]\n", argv[0]);
        return 2;
    }
    std::string dir = argv[1];
    int samples = argc > 2 ? std::atoi(argv[2]) : 20;
    std::vector<param> ps;
    std::vector<check> cs;
    read_manifest(dir, ps, cs);
    std::vector<unsigned char> in = slurp(dir + "/in.bin");
    std::vector<unsigned char> ref = slurp(dir + "/ref.bin");
    std::vector<void *> args;
    for (param &p : ps) {
        if (p.kind == "buffer") {
            OK(cudaMalloc(&p.dev, p.bytes ? p.bytes : 1));
            if (p.dir == "out") { // poisoned, as the reference's were
                std::vector<unsigned> poison((p.bytes + 3) / 4, 0xDEADBEEFu);
                OK(cudaMemcpy(p.dev, poison.data(), p.bytes,
                              cudaMemcpyHostToDevice));
            } else {
                OK(cudaMemcpy(p.dev, in.data() + p.in_off, p.bytes,
                              cudaMemcpyHostToDevice));
            }
            p.ptr = &p.dev;
        } else if (p.kind == "constant") {
            p.host.assign(in.begin() + p.in_off,
                          in.begin() + p.in_off + p.bytes);
            p.dev = p.host.data();
            p.ptr = &p.dev;
        } else {
            p.ptr = p.kind == "real" ? (const void *)&p.real
                                     : (const void *)&p.ll;
        }
        args.push_back(const_cast<void *>(p.ptr));
    }
    cudaStream_t s;
    OK(cudaStreamCreate(&s));
    OK(XC_LAUNCHER(args.data(), s));
    OK(cudaStreamSynchronize(s));
    int wrong = 0;
    std::string said;
    for (const check &k : cs) {
        const param *p = nullptr;
        for (const param &q : ps)
            if (q.name == k.name)
                p = &q;
        if (!p)
            continue;
        std::vector<unsigned char> got(p->bytes);
        OK(cudaMemcpy(got.data(), p->dev, p->bytes, cudaMemcpyDeviceToHost));
        double sum = 0, rsum = 0;
        long long bad = judge(k, got.data(), ref.data() + p->out_off,
                              p->bytes, &sum, &rsum);
        char text[256];
        if (k.rule == "sum")
            std::snprintf(text, sizeof text, " %s: sum %.10g vs %.10g %s",
                          k.name.c_str(), sum, rsum, bad ? "WRONG" : "ok");
        else
            std::snprintf(text, sizeof text, " %s: %lld of %zu elements "
                          "differ (budget %lld) %s", k.name.c_str(), bad,
                          p->bytes / k.elem, k.budget,
                          bad > k.budget ? "WRONG" : "ok");
        said += text;
        wrong |= k.rule == "sum" ? bad != 0 : bad > k.budget;
    }
    // Back to back: samples of at least 1 ms of launches each.
    cudaEvent_t a, b;
    OK(cudaEventCreate(&a));
    OK(cudaEventCreate(&b));
    // The milliseconds of n launches back to back.
    auto launches = [&](int n) {
        float ms = 0;
        OK(cudaEventRecord(a, s));
        for (int i = 0; i < n; ++i)
            OK(XC_LAUNCHER(args.data(), s));
        OK(cudaEventRecord(b, s));
        OK(cudaEventSynchronize(b));
        OK(cudaEventElapsedTime(&ms, a, b));
        return ms;
    };
    int per = 1;
    while (launches(per) < 1.0f && per < (1 << 16))
        per *= 2;
    std::vector<float> t;
    for (int k = 0; k < samples; ++k)
        t.push_back(launches(per) / per);
    std::sort(t.begin(), t.end());
    std::printf("harness %s:%s; median %.4f ms over %d samples of %d "
                "launches\n", wrong ? "WRONG" : "right", said.c_str(),
                t[t.size() / 2], samples, per);
    return wrong;
}

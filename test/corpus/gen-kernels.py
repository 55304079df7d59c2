#!/usr/bin/env python3
"""Writes a corpus of ordinary OpenCL C kernels for the passthrough tests.

usage: gen-kernels.py DIR [--files N]

Each file holds several kernels drawn from templates that cover what real
OpenCL C uses: scalar and vector types, swizzles and conversions, local
memory with work-group barriers, images and samplers, structs and unions,
function-like macros and token pasting, attributes, extension pragmas,
half (vload_half/vstore_half) and double, constant-memory tables, atomics,
helper functions, loops, switch and goto. The output is deterministic (a
fixed seed), so a failure names the same file every time. Every file is
valid OpenCL C 1.2 that PoCL builds. Some files use CRLF line endings,
tabs, or non-ASCII text in comments and strings, which must pass through
untouched as well.
"""
import os
import random
import sys

SCALARS = ["char", "uchar", "short", "ushort", "int", "uint", "long", "ulong",
           "float"]
FLOATS = ["float", "float2", "float4", "float8", "float16"]
VECTORS = ["int2", "int4", "uint4", "float2", "float4", "float8", "short8",
           "uchar16", "long2", "double2"]
OPS = ["+", "-", "*", "^", "&", "|"]


def k_elementwise(r, n):
    t = r.choice(SCALARS)
    op = r.choice(OPS if t != "float" else ["+", "-", "*"])
    q = r.choice(["__kernel", "kernel"])
    sp = r.choice(["global", "__global"])
    return f"""{q} void {n}({sp} {t} *out, {sp} const {t} *a,
                 {sp} const {t} *b, uint count) {{
  size_t i = get_global_id(0);
  if (i < count)
    out[i] = a[i] {op} b[i];
}}
"""


def k_vector(r, n):
    t = r.choice(VECTORS)
    base = t.rstrip("0123456789")
    width = int(t[len(base):])
    sw = {2: ".yx", 4: ".wzyx", 8: ".s76543210", 16: ".sFEDCBA9876543210"}
    pre = ("#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
           if base == "double" else "")
    return f"""{pre}kernel void {n}(global {t} *v, global {base} *flat) {{
  size_t i = get_global_id(0);
  {t} x = v[i];
  {t} y = x{sw[width]};
  v[i] = x + y * ({t})(({base})2);
  vstore{width}(y, i, flat);
  {t} z = vload{width}(i, flat);
  flat[i] = z.s0 + z.s1;
}}
"""


def k_convert(r, n):
    w = r.choice(["", "2", "4", "8", "16"])
    rnd = r.choice(["", "_rte", "_rtz", "_sat", "_sat_rte"])
    return f"""kernel void {n}(global const float{w} *in, global int{w} *out) {{
  size_t i = get_global_id(0);
  out[i] = convert_int{w}{rnd}(in[i] * 3.5f);
  global uint{w} *bits = (global uint{w} *)in;
  out[i] ^= as_int{w}(bits[i]);
}}
"""


def k_local_reduce(r, n):
    t = r.choice(["float", "int", "uint"])
    ls = r.choice([64, 128, 256])
    attr = r.choice(["", f"__attribute__((reqd_work_group_size({ls}, 1, 1)))\n"])
    return f"""{attr}kernel void {n}(global const {t} *in, global {t} *partial,
                  local {t} *scratch) {{
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {{
    if (lid < s)
      scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }}
  if (lid == 0)
    partial[get_group_id(0)] = scratch[0];
}}
"""


def k_local_tile(r, n):
    ts = r.choice([8, 16])
    return f"""#define TILE_{n} {ts}
kernel __attribute__((reqd_work_group_size(TILE_{n}, TILE_{n}, 1)))
void {n}(global const float *a, global float *at, int w, int h) {{
  local float tile[TILE_{n}][TILE_{n} + 1];
  int x = get_global_id(0), y = get_global_id(1);
  int lx = get_local_id(0), ly = get_local_id(1);
  if (x < w && y < h)
    tile[ly][lx] = a[y * w + x];
  barrier(CLK_LOCAL_MEM_FENCE);
  x = get_group_id(1) * TILE_{n} + lx;
  y = get_group_id(0) * TILE_{n} + ly;
  if (x < h && y < w)
    at[y * h + x] = tile[lx][ly];
}}
#undef TILE_{n}
"""


def k_image(r, n):
    addr = r.choice(["CLK_ADDRESS_CLAMP_TO_EDGE", "CLK_ADDRESS_CLAMP",
                     "CLK_ADDRESS_NONE"])
    filt = r.choice(["CLK_FILTER_NEAREST", "CLK_FILTER_LINEAR"])
    coord = "float2" if filt == "CLK_FILTER_LINEAR" else r.choice(["int2",
                                                                    "float2"])
    norm = "CLK_NORMALIZED_COORDS_FALSE"
    mk = ("(float2)(x + 0.5f, y + 0.5f)" if coord == "float2"
          else "(int2)(x, y)")
    return f"""constant sampler_t smp_{n} = {norm} | {addr} | {filt};

kernel void {n}(read_only image2d_t src, write_only image2d_t dst,
                float gain) {{
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= get_image_width(src) || y >= get_image_height(src))
    return;
  float4 p = read_imagef(src, smp_{n}, {mk});
  write_imagef(dst, (int2)(x, y), p * gain);
}}
"""


def k_image3d(r, n):
    return f"""kernel void {n}(read_only image3d_t vol, global float *out,
                sampler_t s) {{
  int4 c = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  int4 d = get_image_dim(vol);
  out[(c.z * d.y + c.y) * d.x + c.x] = read_imagef(vol, s, c).x;
}}
"""


def k_struct(r, n):
    packed = r.choice(["", " __attribute__((packed))",
                       " __attribute__((aligned(16)))"])
    return f"""typedef struct{packed} particle_{n} {{
  float4 pos;
  float4 vel;
  int alive;
}} particle_{n};

typedef union bits_{n} {{
  float f;
  uint u;
}} bits_{n};

static float energy_{n}(const particle_{n} *p) {{
  return 0.5f * dot(p->vel, p->vel);
}}

kernel void {n}(global particle_{n} *ps, float dt, global float *e) {{
  size_t i = get_global_id(0);
  particle_{n} p = ps[i];
  if (!p.alive)
    return;
  p.pos += p.vel * dt;
  bits_{n} b;
  b.f = energy_{n}(&p);
  e[i] = b.u & 0x7fffffffu ? b.f : 0.0f;
  ps[i] = p;
}}
"""


def k_macro(r, n):
    t1, t2 = r.sample(["int", "uint", "float", "short"], 2)
    return f"""#define AXPY_{n}(T)                                           \\
  kernel void {n}_##T(global T *y, global const T *x, T alpha) {{ \\
    size_t i = get_global_id(0);                                \\
    y[i] = alpha * x[i] + y[i];                                 \\
  }}
AXPY_{n}({t1})
AXPY_{n}({t2})
#define SQR_{n}(v) ((v) * (v))
#define STR_{n}(s) #s
#define IDX_{n} get_global_id(0)

kernel void {n}(global float *x) {{
  constant char *tag = STR_{n}(squares);
  x[IDX_{n}] = SQR_{n}(x[IDX_{n}]) + (float)tag[0];
}}
"""


def k_double(r, n):
    fn = r.choice(["sqrt", "exp", "log1p", "cbrt", "hypot(v, 1.0)"])
    call = fn if "(" in fn else f"{fn}(v)"
    return f"""#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void {n}(global double *d, global const float *f) {{
  size_t i = get_global_id(0);
  double v = (double)f[i] + d[i];
  d[i] = {call};
}}
"""


def k_half(r, n):
    w = r.choice(["", "2", "4", "8"])
    ld = f"vload_half{w}"
    st = f"vstore_half{w}" + r.choice(["", "_rte", "_rtz"])
    t = f"float{w}"
    return f"""kernel void {n}(global const half *in, global half *out, float k) {{
  size_t i = get_global_id(0);
  {t} v = {ld}(i, in);
  {st}(v * k, i, out);
}}
"""


def k_constant_table(r, n):
    vals = ", ".join(str(r.randint(-99, 99)) for _ in range(16))
    return f"""constant int table_{n}[16] = {{{vals}}};
__constant float scale_{n} = {r.randint(1, 9)}.5f;

kernel void {n}(global float *out, __constant int *extra) {{
  size_t i = get_global_id(0);
  out[i] = table_{n}[i & 15] * scale_{n} + extra[i & 3];
}}
"""


def k_atomics(r, n):
    space = r.choice(["global", "local"])
    if space == "global":
        return f"""kernel void {n}(global const uint *keys, volatile global int *hist,
                global uint *count) {{
  size_t i = get_global_id(0);
  atomic_inc(&hist[keys[i] & 255]);
  atomic_max(&hist[256], (int)keys[i]);
  atom_add(count, 1u);
}}
"""
    return f"""kernel void {n}(global const uint *keys, global uint *hist) {{
  local uint bins[64];
  for (size_t b = get_local_id(0); b < 64; b += get_local_size(0))
    bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&bins[keys[get_global_id(0)] & 63], 1u);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t b = get_local_id(0); b < 64; b += get_local_size(0))
    atomic_add(&hist[b], bins[b]);
}}
"""


def k_helpers(r, n):
    return f"""inline float lerp_{n}(float a, float b, float t) {{
  return a + (b - a) * t;
}}

static int clampi_{n}(int v, int lo, int hi) {{
  return v < lo ? lo : v > hi ? hi : v;
}}

float smooth_{n}(global const float *x, int i, int n) {{
  float s = 0.0f;
  for (int k = -2; k <= 2; k++)
    s += x[clampi_{n}(i + k, 0, n - 1)];
  return lerp_{n}(x[i], s / 5.0f, 0.{r.randint(1, 9)}f);
}}

kernel void {n}(global const float *x, global float *y, int n) {{
  int i = get_global_id(0);
  if (i < n)
    y[i] = smooth_{n}(x, i, n);
}}
"""


def k_control(r, n):
    return f"""kernel void {n}(global int *data, int mode) {{
  size_t i = get_global_id(0);
  int v = data[i];
  switch (mode) {{
  case 0:
    v = -v;
    break;
  case 1:
  case 2:
    v <<= mode;
    break;
  default:
    do {{
      v = v / 2 + 1;
    }} while (v > {r.randint(2, 50)});
  }}
  for (int k = 0; k < 4; ++k) {{
    if (v & 1)
      continue;
    v ^= k;
  }}
  while (v > 1000)
    v -= 1000;
  if (v < 0)
    goto done;
  v = v ? v : 1;
done:
  data[i] = v;
}}
"""


def k_grid2d(r, n):
    return f"""__kernel __attribute__((work_group_size_hint(16, 16, 1)))
__attribute__((vec_type_hint(float4)))
void {n}(__global float *img, const int width, const int height) {{
  const int x = get_global_id(0);
  const int y = get_global_id(1);
  if (x >= width || y >= height)
    return;
  float acc = 0.0f;
#pragma unroll
  for (int dy = -1; dy <= 1; dy++)
    acc += img[clamp(y + dy, 0, height - 1) * width + x];
  img[y * width + x] = acc / 3.0f + (float)get_global_offset(0);
}}
"""


def k_math(r, n):
    f = r.choice(FLOATS)
    fns = r.sample(["sin", "cos", "exp", "log", "sqrt", "rsqrt", "fabs",
                    "floor", "native_sin", "half_exp", "tanh", "erf"], 3)
    body = " + ".join(f"{g}(v)" for g in fns)
    return f"""kernel void {n}(global {f} *v_out, global const {f} *v_in) {{
  size_t i = get_global_id(0);
  {f} v = v_in[i];
  v_out[i] = {body} + fma(v, v, ({f})1.0f) + mix(v, v * 2.0f, 0.25f);
}}
"""


def k_printf_like(r, n):
    return f"""kernel void {n}(global uint *flags) {{
  if (get_global_id(0) == 0 && flags[0] == 0xdeadbeef)
    printf("{n}: %u groups\\n", (uint)get_num_groups(0));
  flags[get_global_id(0)] |= 1u << (get_local_id(0) & 31);
}}
"""


def k_private_array(r, n):
    m = r.choice([4, 8, 16])
    return f"""kernel void {n}(global const float *in, global float *out) {{
  float win[{m}];
  size_t base = get_global_id(0) * {m};
  for (int k = 0; k < {m}; k++)
    win[k] = in[base + k];
  for (int a = 1; a < {m}; a++)
    for (int b = a; b > 0 && win[b - 1] > win[b]; b--) {{
      float t = win[b];
      win[b] = win[b - 1];
      win[b - 1] = t;
    }}
  out[get_global_id(0)] = win[{m} / 2];
}}
"""


def k_async_copy(r, n):
    m = r.choice([32, 64, 128])
    return f"""kernel void {n}(global const float4 *in, global float4 *out) {{
  local float4 stage[{m}];
  size_t base = get_group_id(0) * {m};
  event_t e = async_work_group_copy(stage, in + base, {m}, 0);
  wait_group_events(1, &e);
  size_t l = get_local_id(0);
  if (l < {m})
    stage[l] = stage[l].wzyx;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(out + base, stage, {m}, 0);
  wait_group_events(1, &e);
  mem_fence(CLK_GLOBAL_MEM_FENCE);
}}
"""


def k_relational(r, n):
    return f"""kernel void {n}(global float4 *v, global int *flags) {{
  size_t i = get_global_id(0);
  float4 x = v[i];
  int4 bad = isnan(x) | isinf(x);
  flags[i] = any(bad) ? -1 : all(x > (float4)0.0f);
  v[i] = select(x, (float4)0.0f, bad);
  v[i] = bitselect(v[i], fmax(x, {r.randint(1, 9)}.0f),
                   as_float4((uint4)(0x80000000u)));
}}
"""


def k_integer(r, n):
    t = r.choice(["uint", "int", "uint4", "ushort8", "ulong"])
    return f"""kernel void {n}(global {t} *a, global const {t} *b) {{
  size_t i = get_global_id(0);
  {t} x = a[i], y = b[i];
  x = popcount(x) + clz(y) + rotate(x, ({t})({r.randint(1, 7)}));
  x = add_sat(x, y) ^ abs_diff(x, y) ^ mul_hi(x, y) ^ hadd(x, y);
  a[i] = max(x, y) - min(x, y) + (x << ({t})3) % (y | ({t})1);
}}
"""


def k_restrict(r, n):
    return f"""float accumulate_{n}(const global float *restrict p, int len) {{
  float s = 0.0f;
  for (const global float *q = p; q < p + len; ++q)
    s += *q;
  return s;
}}

kernel void {n}(global float *restrict dst,
                const global float *restrict src, const int len) {{
  const size_t g = get_global_id(0);
  dst[g] = accumulate_{n}(src + g * len, len) / (float)len;
}}
"""


TEMPLATES = [k_elementwise, k_vector, k_convert, k_local_reduce, k_local_tile,
             k_image, k_image3d, k_struct, k_macro, k_double, k_half,
             k_constant_table, k_atomics, k_helpers, k_control, k_grid2d, k_math,
             k_printf_like, k_private_array, k_async_copy, k_relational,
             k_integer, k_restrict]


def make_file(r, index):
    """Returns the text of one file and the number of kernels in it."""
    parts = [f"/* Generated kernel file {index}: ordinary OpenCL C, no "
             "global barrier. */\n"]
    kernels = 0
    picks = r.sample(TEMPLATES, r.randint(10, 16))
    for j, t in enumerate(picks):
        name = f"{t.__name__[2:]}_{index}_{j}"
        parts.append(t(r, name))
        kernels += 3 if t is k_macro else 1
    if index % 5 == 1:
        parts.insert(1, "// Non-ASCII text: \u00e9t\u00e9, \u03bb-calcul, "
                     "\u6570\u636e \u2014 only in comments.\n")
    text = "\n".join(parts)
    if index % 4 == 2:
        text = text.replace("  ", "\t")
    if index % 4 == 3:
        text = text.replace("\n", "\r\n")
    return text, kernels


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__.strip().splitlines()[2])
    out = args[0]
    files = int(args[args.index("--files") + 1]) if "--files" in args else 20
    r = random.Random(20240601)
    os.makedirs(out, exist_ok=True)
    total = 0
    for i in range(files):
        text, k = make_file(r, i)
        with open(os.path.join(out, f"gen-{i:02}.cl"), "w", newline="",
                  encoding="utf-8") as f:
            f.write(text)
        total += k
    print(f"gen-kernels: {total} kernels in {files} files")


if __name__ == "__main__":
    main()

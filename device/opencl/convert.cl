/* Explicit conversions (OpenCL C 1.2, 6.2.3): convert_<type>[_sat][_rte|_rtz|_rtp|_rtn] for
 * every pair of the element types char, uchar, short, ushort, int, uint, long, ulong and
 * float, scalars and vectors of 2, 3, 4, 8 and 16. Integer results are truncated toward zero
 * from floats unless a rounding mode says otherwise, and wrap unless _sat clamps them (NaN
 * becomes 0); float results round to nearest even unless a mode says otherwise, which the
 * conversion then honours exactly for integers wider than a float's 24 bits. */
#include "clmath.h"

/* Classes of the element types: SI signed integer, UI unsigned integer, FL float. */
#define CLASS_char SI
#define CLASS_uchar UI
#define CLASS_short SI
#define CLASS_ushort UI
#define CLASS_int SI
#define CLASS_uint UI
#define CLASS_long SI
#define CLASS_ulong UI
#define CLASS_float FL

#define MIN_char CHAR_MIN
#define MAX_char CHAR_MAX
#define MIN_uchar 0
#define MAX_uchar UCHAR_MAX
#define MIN_short SHRT_MIN
#define MAX_short SHRT_MAX
#define MIN_ushort 0
#define MAX_ushort USHRT_MAX
#define MIN_int INT_MIN
#define MAX_int INT_MAX
#define MIN_uint 0
#define MAX_uint UINT_MAX
#define MIN_long LONG_MIN
#define MAX_long LONG_MAX
#define MIN_ulong 0
#define MAX_ulong ULONG_MAX

/* float -> integer rounding of each mode (the default for integers is toward zero) */
#define ROUND_(x) trunc(x)
#define ROUND__rtz(x) trunc(x)
#define ROUND__rte(x) rint(x)
#define ROUND__rtp(x) ceil(x)
#define ROUND__rtn(x) floor(x)

/* Saturating to integer type D from a rounded float, a signed or an unsigned 64-bit value. */
#define SAT_HELPERS(D)                                                                         \
    static D sat_##D##_FL(float r) {                                                           \
        if (isnan(r)) return 0;                                                                \
        if (r <= (float)MIN_##D) return (D)MIN_##D;                                            \
        if (r >= (float)MAX_##D) return (D)MAX_##D;                                            \
        return (D)r;                                                                           \
    }                                                                                          \
    static D sat_##D##_SI(long v) {                                                            \
        if (v < 0 && (MIN_##D == 0 || v < (long)MIN_##D)) return (D)MIN_##D;                   \
        if (v > 0 && (ulong)v > (ulong)MAX_##D) return (D)MAX_##D;                             \
        return (D)v;                                                                           \
    }                                                                                          \
    static D sat_##D##_UI(ulong v) { return v > (ulong)MAX_##D ? (D)MAX_##D : (D)v; }
SAT_HELPERS(char)
SAT_HELPERS(uchar)
SAT_HELPERS(short)
SAT_HELPERS(ushort)
SAT_HELPERS(int)
SAT_HELPERS(uint)
SAT_HELPERS(long)
SAT_HELPERS(ulong)

/* integer -> float with a rounding mode: round to nearest, then step toward the mode if the
 * result is on the wrong side of the exact value. */
static int cmp_si(float f, long v) { /* sign of f - v */
    if (f >= 0x1p63f) return 1;
    if (f < -0x1p63f) return -1;
    long l = (long)f;
    return l > v ? 1 : l < v ? -1 : 0;
}
static int cmp_ui(float f, ulong v) {
    if (f >= 0x1p64f) return 1;
    ulong l = (ulong)f;
    return l > v ? 1 : l < v ? -1 : 0;
}
#define I2F(CL, T)                                                                             \
    static float i2f__rte_##CL(T v) { return (float)v; }                                       \
    static float i2f__##CL(T v) { return (float)v; }                                           \
    static float i2f__rtz_##CL(T v) {                                                          \
        float f = (float)v;                                                                    \
        int c = cmp_##CL(f, v);                                                                \
        return (c > 0 && f > 0.0f) || (c < 0 && f < 0.0f) ? nextafter(f, 0.0f) : f;            \
    }                                                                                          \
    static float i2f__rtp_##CL(T v) {                                                          \
        float f = (float)v;                                                                    \
        return cmp_##CL(f, v) < 0 ? nextafter(f, INFINITY) : f;                                \
    }                                                                                          \
    static float i2f__rtn_##CL(T v) {                                                          \
        float f = (float)v;                                                                    \
        return cmp_##CL(f, v) > 0 ? nextafter(f, -INFINITY) : f;                               \
    }
I2F(si, long)
I2F(ui, ulong)

/* the body of convert_D<SAT><RND>(S x), by the classes of D and S */
#define BODY(D, S, SAT, RND) BODY_(CLASS_##D, CLASS_##S, D, S, SAT, RND)
#define BODY_(CD, CS, D, S, SAT, RND) BODY__(CD, CS, D, S, SAT, RND)
#define BODY__(CD, CS, D, S, SAT, RND) BODY_##CD##_##CS##SAT(D, S, RND)
#define BODY_SI_FL(D, S, RND) return (D)ROUND_##RND(x);
#define BODY_UI_FL(D, S, RND) return (D)ROUND_##RND(x);
#define BODY_SI_FL_sat(D, S, RND) return sat_##D##_FL(ROUND_##RND(x));
#define BODY_UI_FL_sat(D, S, RND) return sat_##D##_FL(ROUND_##RND(x));
#define BODY_SI_SI(D, S, RND) return (D)x;
#define BODY_SI_UI(D, S, RND) return (D)x;
#define BODY_UI_SI(D, S, RND) return (D)x;
#define BODY_UI_UI(D, S, RND) return (D)x;
#define BODY_SI_SI_sat(D, S, RND) return sat_##D##_SI((long)x);
#define BODY_UI_SI_sat(D, S, RND) return sat_##D##_SI((long)x);
#define BODY_SI_UI_sat(D, S, RND) return sat_##D##_UI((ulong)x);
#define BODY_UI_UI_sat(D, S, RND) return sat_##D##_UI((ulong)x);
#define BODY_FL_SI(D, S, RND) return i2f_##RND##_si((long)x);
#define BODY_FL_UI(D, S, RND) return i2f_##RND##_ui((ulong)x);
#define BODY_FL_FL(D, S, RND) return x;

#define CVT_VEC(D, S, SAT, RND, N)                                                             \
    OVL D##N convert_##D##N##SAT##RND(S##N x) {                                                \
        D##N r;                                                                                \
        for (int i = 0; i < N; i++) r[i] = convert_##D##SAT##RND(x[i]);                        \
        return r;                                                                              \
    }
#define CVT(D, S, SAT, RND)                                                                    \
    OVL D convert_##D##SAT##RND(S x) { BODY(D, S, SAT, RND) }                                  \
    CVT_VEC(D, S, SAT, RND, 2)                                                                 \
    CVT_VEC(D, S, SAT, RND, 3)                                                                 \
    CVT_VEC(D, S, SAT, RND, 4) CVT_VEC(D, S, SAT, RND, 8) CVT_VEC(D, S, SAT, RND, 16)

#define CVT_RND(D, S, SAT)                                                                     \
    CVT(D, S, SAT, )                                                                           \
    CVT(D, S, SAT, _rte) CVT(D, S, SAT, _rtz) CVT(D, S, SAT, _rtp) CVT(D, S, SAT, _rtn)
#define CVT_INT_DST(D, S) CVT_RND(D, S, ) CVT_RND(D, S, _sat)
#define CVT_FROM_ALL(M, D)                                                                     \
    M(D, char) M(D, uchar) M(D, short) M(D, ushort) M(D, int) M(D, uint) M(D, long)            \
        M(D, ulong) M(D, float)
#define CVT_FLOAT_DST(D, S) CVT_RND(D, S, )

CVT_FROM_ALL(CVT_INT_DST, char)
CVT_FROM_ALL(CVT_INT_DST, uchar)
CVT_FROM_ALL(CVT_INT_DST, short)
CVT_FROM_ALL(CVT_INT_DST, ushort)
CVT_FROM_ALL(CVT_INT_DST, int)
CVT_FROM_ALL(CVT_INT_DST, uint)
CVT_FROM_ALL(CVT_INT_DST, long)
CVT_FROM_ALL(CVT_INT_DST, ulong)
CVT_FROM_ALL(CVT_FLOAT_DST, float)

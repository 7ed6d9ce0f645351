/**
 * Lifter fixture: straight-line code, no branches. Constants of every kind,
 * arithmetic on int/long/float/double, conversions, compound assignment,
 * pre/post increment inside expressions.
 */
public class Straight {

    // ---------------------------------------------------------------- constants

    // int constants: iconst_m1, iconst_0 .. iconst_5
    static int intTiny(int k) {
        int a = -1;
        int b = 0;
        int c = 1;
        int d = 2;
        int e = 3;
        int f = 4;
        int g = 5;
        return a + b + c + d + e + f + g + k;
    }

    // int constants: bipush (incl. negative), sipush (incl. negative)
    static int intSmall(int k) {
        int a = 6;
        int b = -128;
        int c = 127;
        int d = 128;
        int e = -32768;
        int f = 32767;
        return a + b + c + d + e + f + k;
    }

    // int constants that need ldc: 32768, -32769, Integer.MIN_VALUE, Integer.MAX_VALUE
    static int intLarge(int k) {
        int a = 32768;
        int b = -32769;
        int c = Integer.MIN_VALUE;
        int d = Integer.MAX_VALUE;
        int e = 123456789;
        return a ^ b ^ c ^ d ^ e ^ k;
    }

    // long constants: lconst_0, lconst_1, ldc2_w (small, negative, MIN, MAX)
    static long longConsts(long k) {
        long a = 0L;
        long b = 1L;
        long c = 2L;
        long d = -1L;
        long e = Long.MIN_VALUE;
        long f = Long.MAX_VALUE;
        long g = 0x123456789ABCDEFL;
        return a + b + c + d + (e ^ f ^ g) + k;
    }

    // float constants: fconst_0/1/2, ldc (3.5f, -0.0f, NaN, infinities, MIN_VALUE)
    static float floatConsts(float k) {
        float a = 0.0f;
        float b = 1.0f;
        float c = 2.0f;
        float d = 3.5f;
        float e = -0.0f;
        float f = Float.NaN;
        float g = Float.POSITIVE_INFINITY;
        float h = Float.NEGATIVE_INFINITY;
        float i = Float.MIN_VALUE;
        return a + b + c + d + e + f + g + h + i + k;
    }

    // double constants: dconst_0/1, ldc2_w (2.0, 0.1, -0.0, NaN, infinities, MIN_VALUE)
    static double doubleConsts(double k) {
        double a = 0.0;
        double b = 1.0;
        double c = 2.0;
        double d = 0.1;
        double e = -0.0;
        double f = Double.NaN;
        double g = Double.POSITIVE_INFINITY;
        double h = Double.NEGATIVE_INFINITY;
        double i = Double.MIN_VALUE;
        return a + b + c + d + e + f + g + h + i + k;
    }

    // returns NaN directly (ldc2_w NaN; dreturn)
    static double nan() {
        return Double.NaN;
    }

    // returns negative zero directly (ldc2_w -0.0; dreturn)
    static double negZero() {
        return -0.0;
    }

    // String constant with escapes: \n \t \" \\
    static String strEscapes() {
        return "line1\nline2\ttab \"quoted\" back\\slash";
    }

    // String constant with control characters: \0, \u0001, DEL (modified UTF-8 encodes \0 as two bytes)
    static String strControl() {
        return "nul\0ctl\u0001del\u007f";
    }

    // String constant with non-ASCII BMP characters (Latin-1, CJK, euro sign)
    static String strNonAscii() {
        return "caf\u00e9 \u00fc\u00df \u65e5\u672c \u20ac";
    }

    // String constant with a supplementary character (surrogate pair, U+1F600)
    static String strSupplementary() {
        return "\ud83d\ude00";
    }

    // empty String constant
    static String strEmpty() {
        return "";
    }

    // class literal: ldc of a class
    static Class<?> classString() {
        return String.class;
    }

    // class literal of an array class: ldc "[I"
    static Class<?> classIntArray() {
        return int[].class;
    }

    // class literal of the class itself
    static Class<?> classSelf() {
        return Straight.class;
    }

    // class literal of a primitive type: getstatic Integer.TYPE (not ldc)
    static Class<?> classPrimitive() {
        return int.class;
    }

    // null constant: aconst_null
    static Object nullConst() {
        Object o = null;
        return o;
    }

    // ------------------------------------------------------------- arithmetic

    // int: iadd isub imul idiv irem iand ior ixor ishl ishr iushr ineg
    static int intArith(int a, int b) {
        int r = a + b;
        r = r - b;
        r = r * a;
        r = r / (b | 1);
        r = r % (b | 1);
        r = r & a;
        r = r | b;
        r = r ^ a;
        r = r << b;
        r = r >> a;
        r = r >>> b;
        r = -r;
        return r;
    }

    // long: ladd lsub lmul ldiv lrem land lor lxor lshl lshr lushr (int shift count) lneg
    static long longArith(long a, long b, int s) {
        long r = a + b;
        r = r - b;
        r = r * a;
        r = r / (b | 1L);
        r = r % (b | 1L);
        r = r & a;
        r = r | b;
        r = r ^ a;
        r = r << s;
        r = r >> s;
        r = r >>> s;
        r = -r;
        return r;
    }

    // float: fadd fsub fmul fdiv frem fneg
    static float floatArith(float a, float b) {
        float r = a + b;
        r = r - b;
        r = r * a;
        r = r / b;
        r = r % b;
        r = -r;
        return r;
    }

    // double: dadd dsub dmul ddiv drem dneg
    static double doubleArith(double a, double b) {
        double r = a + b;
        r = r - b;
        r = r * a;
        r = r / b;
        r = r % b;
        r = -r;
        return r;
    }

    // one big int expression using operand-stack depth > 2 (no locals in between)
    static int deepExpr(int a, int b, int c, int d) {
        return (a + b) * (c - d) ^ ((a << 2) + (b >>> 1)) % ((c & 7) + 1);
    }

    // mixing int and long operands (implicit i2l before ladd/lmul)
    static long mixedIntLong(int a, long b) {
        return a * b + a;
    }

    // ------------------------------------------------------------ conversions

    // i2l i2f i2d
    static double fromInt(int a) {
        long l = a;
        float f = a;
        double d = a;
        return l + f + d;
    }

    // l2i l2f l2d
    static double fromLong(long a) {
        int i = (int) a;
        float f = a;
        double d = a;
        return i + f + d;
    }

    // f2i f2l f2d
    static double fromFloat(float a) {
        int i = (int) a;
        long l = (long) a;
        double d = a;
        return i + l + d;
    }

    // d2i d2l d2f
    static double fromDouble(double a) {
        int i = (int) a;
        long l = (long) a;
        float f = (float) a;
        return i + l + f;
    }

    // i2b i2c i2s
    static int narrowInt(int a) {
        byte b = (byte) a;
        char c = (char) a;
        short s = (short) a;
        return b + c + s;
    }

    // l2i followed by i2b (cast long to byte), d2i followed by i2c (cast double to char)
    static int narrowChains(long a, double d) {
        byte b = (byte) a;
        char c = (char) d;
        return b * 31 + c;
    }

    // -------------------------------------------------------- compound assign

    // compound assignment: iinc (+= const, -= const), += var (iadd), *=, <<=, on int locals
    static int compoundInt(int a, int b) {
        a += 5;
        a -= 3;
        a += b;
        a *= b;
        a <<= 2;
        a >>= 1;
        a >>>= 1;
        a &= 0xff;
        a |= 0x100;
        a ^= b;
        a /= (b | 1);
        a %= 1000;
        return a;
    }

    // compound assignment on narrow types: implicit i2b / i2s / i2c after the operation
    static int compoundNarrow(byte b, short s, char c) {
        b += 1;
        s *= 2;
        c += 3;
        b >>= 1;
        return b + s + c;
    }

    // compound assignment with implicit narrowing from double: i2d dsub d2i; long l2f fmul f2l
    static long compoundWiden(int a, long l) {
        a -= 1.5;
        l *= 2.5f;
        return a + l;
    }

    // compound assignment on long and double locals
    static double compoundWide(long l, double d) {
        l += 7L;
        l <<= 3;
        d *= 1.5;
        d -= l;
        return d;
    }

    // ----------------------------------------------------- pre/post increment

    // x++ and ++x used inside expressions (iload/iinc ordering differs)
    static int incInExpr(int x) {
        int a = x++;
        int b = ++x;
        int c = x-- + --x;
        int d = x++ * ++x;
        return a + b + c + d + x;
    }

    // increments of long and double locals (no iinc: load, add const, store; dup2 when used)
    static long incLong(long x, double d) {
        long a = x++;
        long b = ++x;
        d++;
        return a + b + x + (long) d;
    }
}

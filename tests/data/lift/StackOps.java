/**
 * Lifter fixture: operand-stack manipulation instructions that javac emits
 * for assignments used as values, increments of array elements and fields,
 * and discarded call results. javac never emits swap for these.
 *
 * Checked with `javac -g` (JDK 17) and `javap -c -p`; which method produces
 * which instruction:
 *
 *   dup      chainIntArray, postIncLongField, preIncIntField, incIntField,
 *            compoundChainLocals, compoundChainFields (twice),
 *            compoundChainLongFields, discardNew
 *   dup_x1   assignIntFieldValue, preIncIntField
 *   dup_x2   assignIntArrayValue, chainIntArray, postIncIntArrayValue,
 *            preIncIntArrayValue
 *   dup2     form 1 (two category-1 values: array ref + index):
 *              incIntArray, postIncIntArrayValue, preIncIntArrayValue,
 *              incLongArray, postIncLongArrayValue, addAssignDoubleArrayValue
 *            form 2 (one long/double):
 *              chainLongArray, chainDoubleArray, chainLongField,
 *              postIncStaticLong, compoundChainLongFields
 *   dup2_x1  (long/double under an object ref)
 *            chainLongField, assignDoubleFieldValue, postIncLongField,
 *            compoundChainLongFields
 *   dup2_x2  (long/double under array ref + index)
 *            chainLongArray, chainDoubleArray, postIncLongArrayValue,
 *            addAssignDoubleArrayValue
 *   pop2     discardLong, discardDouble
 *   pop      discardIntAndRef (twice), discardNew
 */
public class StackOps {

    int intField;
    long longField;
    double doubleField;
    static long staticLong;
    static int staticInt;

    // value of `this.intField = v` used: aload_0, iload, dup_x1, putfield
    int assignIntFieldValue(int v) {
        return this.intField = v;
    }

    // value of `a[i] = v` on an int array used: dup_x2 then iastore
    static int assignIntArrayValue(int[] a, int i, int v) {
        return a[i] = v;
    }

    // chained assignment `a[i] = x = y` into an int array: dup (to local) and dup_x2 (to array)
    static int chainIntArray(int[] a, int i, int y) {
        int x;
        int r = a[i] = x = y;
        return r + x;
    }

    // chained assignment into a long array `a[i] = x = y`: dup2 (to local), dup2_x2 (to array)
    static long chainLongArray(long[] a, int i, long y) {
        long x;
        long r = a[i] = x = y;
        return r + x;
    }

    // chained assignment into a double array: dup2 and dup2_x2 on a double value
    static double chainDoubleArray(double[] a, int i, double y) {
        double x;
        double r = a[i] = x = y;
        return r + x;
    }

    // `this.longField = x = y` used as a value: dup2 (to local) and dup2_x1 (to field)
    long chainLongField(long y) {
        long x;
        long r = this.longField = x = y;
        return r + x;
    }

    // `this.doubleField = v` used as a value: dup2_x1 with a double
    double assignDoubleFieldValue(double v) {
        return this.doubleField = v;
    }

    // a[i]++ on an int array, value unused: dup2, iaload, iconst_1, iadd, iastore
    static void incIntArray(int[] a, int i) {
        a[i]++;
    }

    // a[i]++ on an int array, old value used: dup2, iaload, dup_x2, ...
    static int postIncIntArrayValue(int[] a, int i) {
        return a[i]++;
    }

    // ++a[i] on an int array, new value used: dup2, iaload, iconst_1, iadd, dup_x2, iastore
    static int preIncIntArrayValue(int[] a, int i) {
        return ++a[i];
    }

    // a[i]++ on a long array, value unused: dup2, laload, lconst_1, ladd, lastore
    static void incLongArray(long[] a, int i) {
        a[i]++;
    }

    // a[i]++ on a long array, old value used: dup2, laload, dup2_x2, lconst_1, ladd, lastore
    static long postIncLongArrayValue(long[] a, int i) {
        return a[i]++;
    }

    // a[i] += v on a double array with the value used: dup2, daload, dadd, dup2_x2, dastore
    static double addAssignDoubleArrayValue(double[] a, int i, double v) {
        return a[i] += v;
    }

    // obj.longField++ used as a value: dup, getfield, dup2_x1, lconst_1, ladd, putfield
    static long postIncLongField(StackOps o) {
        return o.longField++;
    }

    // ++obj.intField used as a value: dup, getfield, iconst_1, iadd, dup_x1, putfield
    static int preIncIntField(StackOps o) {
        return ++o.intField;
    }

    // obj.intField++ as a statement: dup, getfield, iconst_1, iadd, putfield (no dup_x1)
    static void incIntField(StackOps o) {
        o.intField++;
    }

    // static long post-increment used as a value: getstatic, dup2, lconst_1, ladd, putstatic
    static long postIncStaticLong() {
        return staticLong++;
    }

    // `count += (total = v)` chain on locals: dup (one copy stored to total)
    static int compoundChainLocals(int count, int v) {
        int total;
        count += (total = v);
        return count * 10 + total;
    }

    // `intField += (staticInt = v)` chain on fields: dup, getfield, iload, dup, putstatic, iadd, putfield
    int compoundChainFields(int v) {
        this.intField += (staticInt = v);
        return this.intField;
    }

    // long compound chain used as a value, `return longField += (staticLong = v)`: dup, dup2, dup2_x1
    long compoundChainLongFields(long v) {
        return this.longField += (staticLong = v);
    }

    // helper returning a long
    static long makeLong(int k) {
        return k * 3L;
    }

    // helper returning a double
    static double makeDouble(int k) {
        return k * 0.5;
    }

    // call to a long-returning method whose result is ignored: pop2
    static int discardLong(int k) {
        makeLong(k);
        return k;
    }

    // call to a double-returning method whose result is ignored: pop2
    static int discardDouble(int k) {
        makeDouble(k);
        return k + 1;
    }

    // call to an int-returning method and an object-returning method whose results are ignored: pop
    static int discardIntAndRef(int k) {
        Integer.bitCount(k);
        String.valueOf(k);
        return k;
    }

    // constructor result discarded: new, dup, invokespecial <init>, pop
    static int discardNew(int k) {
        new StringBuilder();
        return k;
    }
}

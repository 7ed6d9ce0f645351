/** Arrays: bounds, negative sizes, null, multi-dimensional arrays, clone, arraycopy, covariance. */
public class VmArrays {
    // inputs: {1, 2, 3}; {}; null; {-5, 5, 2147483647}
    static int sum(int[] a) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }

    // inputs: {1, 2, 3}, 0; {1, 2, 3}, 3; {1, 2, 3}, -1; null, 0
    static int get(int[] a, int i) {
        return a[i];
    }

    // inputs: 0; 3; -1
    static int[] make(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i * i;
        }
        return a;
    }

    // inputs: 2, 3; 0, 4; 3, 0; -1, 2; 2, -1
    static int[][] grid(int n, int m) {
        int[][] g = new int[n][m];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                g[i][j] = i * 10 + j;
            }
        }
        return g;
    }

    // inputs: {1, 2, 3}; {}
    static int[] cloned(int[] a) {
        int[] b = a.clone();
        if (b.length > 0) {
            b[0] = 99;
        }
        return b;
    }

    // inputs: {1, 2, 3, 4, 5}, 1, 0, 3; {1, 2, 3, 4, 5}, 0, 1, 4; {1, 2}, 0, 0, 3; {1, 2}, -1, 0, 1
    static int[] copyRange(int[] a, int from, int to, int n) {
        int[] b = new int[a.length];
        System.arraycopy(a, from, b, to, n);
        return b;
    }

    // inputs: {1, 2, 3, 4, 5}, 1, 0, 3
    static int[] overlap(int[] a, int from, int to, int n) {
        System.arraycopy(a, from, a, to, n);
        return a;
    }

    // inputs: 3; 0
    static long[] longs(int n) {
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = (long) i << 40;
        }
        return a;
    }

    // inputs: {1.5, -2.0}; {}
    static double[] doubles(double[] a) {
        double[] b = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = a[i] * 2;
        }
        return b;
    }

    // inputs: "abc"; ""
    static char[] chars(String s) {
        char[] c = new char[s.length()];
        for (int i = 0; i < c.length; i++) {
            c[i] = (char) (s.charAt(i) + 1);
        }
        return c;
    }

    // inputs: 300; -1; 127
    static byte[] bytes(int v) {
        byte[] b = new byte[2];
        b[0] = (byte) v;
        b[1] = (byte) (v >> 8);
        return b;
    }

    // inputs: true; false
    static boolean[] flags(boolean v) {
        boolean[] b = new boolean[3];
        b[1] = v;
        b[2] = !v;
        return b;
    }

    // inputs: 0; 1
    static int covariance(int k) {
        Object[] objects = new String[2];
        try {
            objects[0] = "fine";
            objects[1] = k == 0 ? (Object) "also fine" : (Object) Integer.valueOf(k);
            return 1;
        } catch (ArrayStoreException e) {
            return -1;
        }
    }

    // inputs: 2, 3
    static Object[] objects(int n, int m) {
        Object[] o = new Object[n + m];
        for (int i = 0; i < n; i++) {
            o[i] = new int[i];
        }
        for (int j = n; j < n + m; j++) {
            o[j] = "s";
        }
        return o;
    }

    // inputs: {5, 3, 1, 4, 2}; {}; {2, 2, 1}
    static int[] sorted(int[] a) {
        int[] b = java.util.Arrays.copyOf(a, a.length);
        java.util.Arrays.sort(b);
        return b;
    }

    // inputs: 3; 0; -1
    static int reflectiveArrays(int n) {
        String[] s = java.util.Arrays.copyOf(new String[] {"a", "b"}, Math.max(n, 0));
        int r = s.length;
        try {
            Object a = java.lang.reflect.Array.newInstance(int.class, n);
            r += java.lang.reflect.Array.getLength(a) * 10;
        } catch (NegativeArraySizeException e) {
            r += 100;
        }
        try {
            Object b = java.lang.reflect.Array.newInstance(String.class, n);
            r += java.lang.reflect.Array.getLength(b) * 10000;
        } catch (NegativeArraySizeException e) {
            r += 200;
        }
        try {
            java.lang.reflect.Array.newInstance(void.class, 1);
        } catch (IllegalArgumentException e) {
            r += 1000;
        }
        return r;
    }

    // inputs: {{1, 2}, {3}}; {{}, null}; null
    static int nested(int[][] a) {
        int s = 0;
        for (int[] row : a) {
            s += row.length;
            for (int x : row) {
                s += x;
            }
        }
        return s;
    }
}

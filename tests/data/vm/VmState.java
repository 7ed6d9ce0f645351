import jresa.spec.Resource;

/**
 * Class initialisation (order, failures), fields of every width, resource limits and the consume
 * counter. Methods without parameters run once per instance set; the others must not depend on
 * static state that earlier calls leave behind.
 */
public class VmState {
    static class Order {
        static final StringBuilder LOG = new StringBuilder();

        static class Parent {
            static int p = log("parent");
        }

        static class Child extends Parent {
            static int c = log("child");
        }

        static int log(String s) {
            LOG.append(s).append(';');
            return LOG.length();
        }
    }

    static class Broken {
        static final int VALUE = compute();

        static int compute() {
            int[] empty = new int[0];
            return empty[1];
        }
    }

    static class Wide {
        long l;
        double d;
        float f;
        byte b;
        char c;
        short s;
        boolean z;
        static long total = 5_000_000_000L;
        static double scale = 0.5;
    }

    // inputs:
    static String initOrder() {
        int c = Order.Child.c;
        return Order.LOG.toString();
    }

    // inputs:
    static int failingInit() {
        int r = 0;
        try {
            r += Broken.VALUE;
        } catch (ExceptionInInitializerError e) {
            r += 1;
        }
        try {
            r += Broken.VALUE;
        } catch (NoClassDefFoundError e) {
            r += 10;
        }
        return r;
    }

    // inputs: 3; 0; -4
    static long atomics(int n) {
        java.util.concurrent.atomic.AtomicInteger a = new java.util.concurrent.atomic.AtomicInteger(n);
        java.util.concurrent.atomic.AtomicLong b = new java.util.concurrent.atomic.AtomicLong(n);
        for (int i = 0; i < 3; i++) {
            a.incrementAndGet();
            b.addAndGet(i * 1_000_000_007L);
            a.compareAndSet(5, -7);
            b.compareAndSet(n * 2L, 1L << 40);
        }
        a.lazySet(a.get() * 3);
        b.set(b.getAndIncrement() * 5);
        return a.get() * 1000L + b.get();
    }

    // inputs: 3, 2.5; -1, -0.0; 100000, 1e300
    static double fields(int n, double x) {
        Wide w = new Wide();
        w.l = n * 3_000_000_000L;
        w.d = x * Wide.scale;
        w.f = (float) x;
        w.b = (byte) (n * 100);
        w.c = (char) (n * 1000);
        w.s = (short) (n * 40000);
        w.z = n > 0;
        return w.l + w.d + w.f + w.b + w.c + w.s + (w.z ? 1 : 0) + Wide.total;
    }

    // inputs: 2, 3
    static long[][] longGrid(int n, int m) {
        long[][] g = new long[n][m];
        g[n - 1][m - 1] = Long.MAX_VALUE;
        return g;
    }

    // inputs: 5; 0; -2
    static int consume(int n) {
        for (int i = 0; i < n; i++) {
            Resource.consume(3);
        }
        Resource.consume();
        return n;
    }

    // inputs: 4
    static int allocations(int n) {
        Object o = new Object();
        int[] a = new int[n];
        int[][] g = new int[2][n];
        return a.length + g.length + (o == null ? 1 : 0);
    }

    // Never ends: the VM stops it at its bytecode budget.
    // inputs: 1
    static int spin(int n) {
        while (n > 0) {
            n = n + 2 - 2;
        }
        return n;
    }

    // inputs: 1000000
    static int deep(int n) {
        return n == 0 ? 0 : 1 + deep(n - 1);
    }

    // inputs: 100000000
    static int hog(int n) {
        long[][] big = new long[n][];
        for (int i = 0; i < n; i++) {
            big[i] = new long[1000];
        }
        return big.length;
    }

    // inputs: "Monday"; "sunday"; ""
    static int day(String s) {
        switch (s) {
            case "Monday":
                return 1;
            case "Tuesday":
                return 2;
            default:
                return -1;
        }
    }

    // inputs: "a1b2 c3"; ""; "\u00e9\u4e2d9"
    static int classify(String s) {
        int digits = 0;
        int letters = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isDigit(c)) {
                digits++;
            } else if (Character.isLetter(c)) {
                letters++;
            }
        }
        return digits * 100 + letters;
    }

    // inputs: 100; 1000; -5
    static boolean boxes(int n) {
        Integer a = n;
        Integer b = n;
        Long l = (long) n;
        return a == b && l.equals((long) n) && a.equals(b);
    }
}

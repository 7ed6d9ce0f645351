/** Exceptions: implicit ones, handlers, finally, rethrow, custom exceptions, exceptions in callees. */
public class VmExceptions {
    static class Failure extends RuntimeException {
        final int code;

        Failure(int code) {
            super(new StringBuilder("failure ").append(code).toString());
            this.code = code;
        }
    }

    static int mayFail(int x) {
        if (x < 0) {
            throw new Failure(x);
        }
        if (x == 0) {
            throw new IllegalStateException();
        }
        return 100 / (x - 5);
    }

    // inputs: 1; 5; 0; -3; 7
    static int catching(int x) {
        try {
            return mayFail(x);
        } catch (Failure f) {
            return f.code * 10;
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    // inputs: 1; 5; 0; -3
    static int escaping(int x) {
        return mayFail(x) + 1;
    }

    // inputs: 3; 0; -2
    static int withFinally(int x) {
        int r = 0;
        try {
            r = 10 / x;
        } finally {
            r += 1000;
        }
        return r;
    }

    // inputs: {1, 2}, 1; {1, 2}, 2; null, 0
    static int nestedHandlers(int[] a, int i) {
        try {
            try {
                return a[i] * 2;
            } catch (ArrayIndexOutOfBoundsException e) {
                throw new IllegalArgumentException("bad index");
            }
        } catch (IllegalArgumentException e) {
            return -2;
        } catch (NullPointerException e) {
            return -3;
        }
    }

    // inputs: 0; 1; 2; 3; 4
    static int which(int k) {
        try {
            switch (k) {
                case 0:
                    Object o = "s";
                    return ((Integer) o).intValue();
                case 1:
                    int[] a = new int[-k];
                    return a.length;
                case 2:
                    Object n = null;
                    return n.hashCode();
                case 3:
                    throw new UnsupportedOperationException();
                default:
                    return k;
            }
        } catch (ClassCastException e) {
            return 10;
        } catch (NegativeArraySizeException e) {
            return 11;
        } catch (NullPointerException e) {
            return 12;
        }
    }

    // inputs: 0; 1; 2
    static int loopWithHandler(int n) {
        int caught = 0;
        for (int i = -2; i <= n; i++) {
            try {
                caught += 10 / i;
            } catch (ArithmeticException e) {
                caught += 1000;
            }
        }
        return caught;
    }

    // inputs: 0; 1
    static String message(int k) {
        try {
            if (k == 0) {
                throw new IllegalStateException("state");
            }
            throw new Failure(k);
        } catch (RuntimeException e) {
            return e.getMessage();
        }
    }

    // inputs: 3; -1
    static int rethrow(int x) {
        try {
            return mayFail(x);
        } catch (RuntimeException e) {
            throw new IllegalStateException("wrapped", e);
        }
    }

    // inputs: 0; 4
    static int recursionDepth(int n) {
        if (n == 0) {
            throw new Failure(7);
        }
        try {
            return recursionDepth(n - 1);
        } catch (Failure f) {
            if (n % 2 == 0) {
                throw f;
            }
            return n;
        }
    }
}

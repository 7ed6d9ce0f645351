/**
 * Lifter fixture: exceptions. Exception tables with one and several
 * handlers, multi-catch, finally (duplicated by javac on every exit path),
 * nested try blocks, try-with-resources, explicit throw, and instructions
 * that throw implicitly (idiv, array access).
 */
public class Exceptions {

    /** A small resource for try-with-resources; counts how often it was closed. */
    static final class Res implements AutoCloseable {
        static int closed;
        final int value;

        // constructor: implicit super(), one field store
        Res(int value) {
            this.value = value;
        }

        // throws when the stored value is negative
        int read() {
            if (value < 0) {
                throw new IllegalStateException("bad resource");
            }
            return value;
        }

        // close(): increments a static counter (getstatic, iconst_1, iadd, putstatic)
        @Override
        public void close() {
            closed++;
        }
    }

    // try/catch with a single handler
    static int catchOne(int a, int b) {
        try {
            return a / b;
        } catch (ArithmeticException e) {
            return 0;
        }
    }

    // try/catch with several handlers for different exception types
    static int catchSeveral(int[] a, int i, int d) {
        try {
            return a[i] / d;
        } catch (ArithmeticException e) {
            return -1;
        } catch (ArrayIndexOutOfBoundsException e) {
            return -2;
        } catch (NullPointerException e) {
            return -3;
        } catch (RuntimeException e) {
            return -4;
        }
    }

    // multi-catch: one handler registered for two types
    static int multiCatch(Object o, int i) {
        try {
            String s = (String) o;
            return s.charAt(i);
        } catch (ClassCastException | IndexOutOfBoundsException e) {
            return -1;
        }
    }

    // try/finally without catch: finally body inlined on the normal path and in a catch-any handler
    static int tryFinally(int[] a) {
        int r = 0;
        try {
            r = a[0];
        } finally {
            r += 100;
        }
        return r;
    }

    // try/catch/finally with a return in the try: the return value is saved, finally runs, then return
    static int tryCatchFinallyReturn(int a, int b) {
        int log = 0;
        try {
            return a / b;
        } catch (ArithmeticException e) {
            log = 1;
            return -log;
        } finally {
            log += 10;
        }
    }

    // finally that overrides the try's return value by returning itself
    @SuppressWarnings("finally")
    static int finallyReturns(int a) {
        try {
            return a;
        } finally {
            return a + 1;
        }
    }

    // nested try blocks: inner handler rethrows a different exception caught by the outer one
    static int nestedTry(int a, int b) {
        try {
            try {
                return a / b;
            } catch (ArithmeticException e) {
                throw new IllegalStateException("wrapped", e);
            }
        } catch (IllegalStateException e) {
            return -1;
        }
    }

    // try inside a finally and a try inside a catch
    static int tryInHandlers(int a, int b) {
        int r = 0;
        try {
            r = a / b;
        } catch (ArithmeticException e) {
            try {
                r = b / a;
            } catch (ArithmeticException e2) {
                r = -2;
            }
        } finally {
            try {
                r += 1000 / (a + b);
            } catch (ArithmeticException e3) {
                r -= 1;
            }
        }
        return r;
    }

    // try-with-resources over one resource (close on every path, addSuppressed on failure)
    static int tryWithResources(int v) {
        try (Res r = new Res(v)) {
            return r.read();
        }
    }

    // try-with-resources over two resources plus a catch clause
    static int tryWithTwoResources(int v, int w) {
        try (Res r1 = new Res(v); Res r2 = new Res(w)) {
            return r1.read() + r2.read();
        } catch (IllegalStateException e) {
            return -1;
        }
    }

    // explicit throw of a newly allocated exception (new, dup, invokespecial, athrow)
    static int explicitThrow(int a) {
        if (a < 0) {
            throw new IllegalArgumentException("negative");
        }
        return a;
    }

    // unconditional throw: the method has no normal exit
    static void alwaysThrows(String msg) {
        throw new UnsupportedOperationException(msg);
    }

    // rethrowing a caught exception from a handler
    static int rethrow(int a, int b) {
        try {
            return a / b;
        } catch (ArithmeticException e) {
            throw e;
        }
    }

    // catching Throwable and checking its type
    static int catchThrowable(Object o) {
        try {
            return o.hashCode();
        } catch (Throwable t) {
            return t instanceof NullPointerException ? -1 : -2;
        }
    }

    // catch inside a loop: the loop continues after a handled exception
    static int catchInLoop(int[] a, int d) {
        int s = 0;
        for (int i = 0; i < a.length; i++) {
            try {
                s += a[i] / (d - i);
            } catch (ArithmeticException e) {
                s -= 1;
            }
        }
        return s;
    }

    // loop inside a try: the exception leaves the loop
    static int loopInTry(int[] a, int n) {
        int s = 0;
        try {
            for (int i = 0; i < n; i++) {
                s += a[i];
            }
        } catch (ArrayIndexOutOfBoundsException e) {
            s = -s;
        }
        return s;
    }

    // integer division and remainder by a possibly-zero divisor (idiv/irem may throw)
    static int divide(int a, int b) {
        return a / b + a % b;
    }

    // long division by a possibly-zero divisor (ldiv may throw)
    static long divideLong(long a, long b) {
        return a / b;
    }

    // array load and store that may throw (null array, index out of bounds, ArrayStoreException)
    static int arrayAccess(int[] a, Object[] o, int i) {
        a[i] = a[i + 1];
        o[i] = "x";
        return a.length + o.length;
    }

    // checked exception declared and thrown (throws clause stored in the Exceptions attribute)
    static int checked(int a) throws Exception {
        if (a == 0) {
            throw new Exception("zero");
        }
        return a;
    }

    // calling a method that declares a checked exception and catching it
    static int callChecked(int a) {
        try {
            return checked(a);
        } catch (Exception e) {
            return -1;
        }
    }
}

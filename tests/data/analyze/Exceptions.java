/**
 * One method per row of the table of exceptions the JVM raises itself (`ir::exceptions`): each
 * raises its row's exception for some of the test inputs and catches it, so the bound must cover
 * the construction of the exception (its constructor's bytecodes) on those inputs. `monitorexit`'s
 * `IllegalMonitorStateException` cannot be written in Java and is not here; `invokeinterface` shares
 * its row with `invokevirtual`.
 */
public class Exceptions {
    int v;

    // expect: O(1)
    static Exceptions boxOrNull(int n) {
        return n > 1 ? new Exceptions() : null;
    }

    // expect: O(1)
    static int getFieldOfNull(int n) {
        Exceptions b = boxOrNull(n);
        try {
            return b.v;
        } catch (NullPointerException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int putFieldOfNull(int n) {
        Exceptions b = boxOrNull(n);
        try {
            b.v = n;
            return 0;
        } catch (NullPointerException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int lengthOfNull(int n) {
        int[] a = n > 1 ? new int[3] : null;
        try {
            return a.length;
        } catch (NullPointerException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int loadOutOfBounds(int n) {
        int[] a = n > 16 ? null : new int[3];
        try {
            return a[n];
        } catch (RuntimeException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int storeOutOfBounds(int n) {
        long[] a = n > 16 ? null : new long[3];
        try {
            a[n] = n;
            return 0;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int storeOfWrongType(int n) {
        Object[] a = n > 1 ? new String[2] : new Integer[2];
        try {
            a[n > 16 ? 3 : 0] = "s";
            return 0;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int divideByZero(int n) {
        try {
            return 100 / (n - 1);
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int remainderByZero(int n) {
        try {
            return 100 % (n - 2);
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    // expect: O(1)
    static long longDivideByZero(int n) {
        try {
            return 100L / (n - 5L);
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    // expect: O(1)
    static long longRemainderByZero(int n) {
        try {
            return 100L % (n - 0L);
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int castToWrongClass(int n) {
        Object o = n > 1 ? new Exceptions() : new Object();
        try {
            return ((Exceptions) o).v;
        } catch (ClassCastException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int negativeIntArray(int n) {
        try {
            return new int[n - 1].length;
        } catch (NegativeArraySizeException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int negativeRefArray(int n) {
        try {
            return new Exceptions[n - 1].length;
        } catch (NegativeArraySizeException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int negativeMultiArray(int n) {
        try {
            return new int[2][n - 1].length;
        } catch (NegativeArraySizeException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int throwNull(int n) {
        RuntimeException thrown = n > 1 ? new IllegalStateException() : null;
        try {
            throw thrown;
        } catch (RuntimeException e) {
            return e instanceof NullPointerException ? -1 : 1;
        }
    }

    // javac protects the monitorexit of a synchronized block with a handler that covers itself;
    // the monitorexit exits the monitor the block entered, so it cannot throw and the handler is
    // no loop. A null lock throws at the monitorenter.
    // expect: O(1)
    static int lockNull(int n) {
        Exceptions b = boxOrNull(n);
        try {
            synchronized (b) {
                return 1;
            }
        } catch (NullPointerException e) {
            return -1;
        }
    }

    // A loop inside a synchronized block.
    // expect: O(n)
    static int lockedSum(int n) {
        int s = 0;
        synchronized (Exceptions.class) {
            for (int i = 0; i < n; i++) {
                s += i;
            }
        }
        return s;
    }

    // Nested blocks, the inner one on an array that may be null.
    // expect: O(n)
    static int nestedLocks(int[] a, int n) {
        int s = 0;
        synchronized (Exceptions.class) {
            synchronized (a) {
                for (int i = 0; i < n; i++) {
                    s += a.length;
                }
            }
        }
        return s;
    }

    // expect: O(1)
    static int invokeOnNull(int n) {
        Exceptions b = boxOrNull(n);
        try {
            return b.equals(b) ? 1 : 0;
        } catch (NullPointerException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int arraycopyOfNull(int n) {
        int[] source = n > 1 ? new int[4] : null;
        int[] target = new int[4];
        try {
            System.arraycopy(source, 0, target, 0, 4);
            return 0;
        } catch (NullPointerException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int arraycopyOutOfBounds(int n) {
        int[] source = new int[4];
        int[] target = new int[4];
        try {
            System.arraycopy(source, 0, target, 1, n > 1 ? 3 : 4);
            return 0;
        } catch (IndexOutOfBoundsException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int arraycopyOfWrongType(int n) {
        Object source = n > 1 ? new int[2] : new long[2];
        int[] target = new int[2];
        try {
            System.arraycopy(source, 0, target, 0, 2);
            return 0;
        } catch (ArrayStoreException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int cloneNotCloneable(int n) {
        try {
            return new Exceptions().clone() == null ? 0 : 1;
        } catch (CloneNotSupportedException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int reflectiveNegativeArray(int n) {
        try {
            return ((int[]) java.lang.reflect.Array.newInstance(int.class, n - 1)).length;
        } catch (NegativeArraySizeException e) {
            return -1;
        }
    }

    // expect: O(1)
    static int reflectiveLengthOfNonArray(int n) {
        Object o = n > 1 ? new int[2] : new Object();
        try {
            return java.lang.reflect.Array.getLength(o);
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }
}

/** A small class that the agent instruments once, with the result thrown away, before instrumenting anything else. */
package jresa.agent;

import java.io.Serializable;
import java.util.List;
import java.util.function.IntSupplier;

/**
 * Never loaded as a class and never run: {@code Agent} reads its class file and instruments it (a dry
 * run) so that the parts of the JDK's ASM that the transformer needs are loaded during start-up,
 * where the classes they load are instrumented in turn, and not first while instrumenting a program
 * class, where they could not be. Its code uses every kind of instruction, attribute and constant
 * the transformer meets in JDK and program classes: switches, jumps, {@code iinc}, multi-dimensional
 * arrays, constants of every kind, lambdas and string concatenation ({@code invokedynamic}),
 * exception handlers, monitors, annotations, generic signatures and an inner class.
 */
@SuppressWarnings("unused")
final class WarmUp<T extends Comparable<T>> implements Serializable {
    private static final long serialVersionUID = 1L;

    private final List<T> items;

    WarmUp(List<T> items) {
        this.items = items;
    }

    /** An inner class with a field of its outer class's type. */
    private final class Cell {
        Cell next;
        T value;
    }

    @Deprecated
    static int everything(int n, long m, double d, float f, Object o, String s) throws Exception {
        int total = 0;
        for (int i = 0; i < n; i++) {
            total += i;
        }
        switch (n) {
            case 0: total++; break;
            case 1: total--; break;
            case 2: total *= 2; break;
            default: total = -total;
        }
        switch (s) {
            case "a": total += 7; break;
            case "bcd": total += 9; break;
            default: break;
        }
        int[][] grid = new int[n][3];
        long[] longs = new long[] {m, 1_000_000_000_000L};
        Object[] objects = {o, Class.class, 3.25, 2.5f, (short) 4, (byte) 5, 'c', true};
        if (o instanceof String && ((String) o).isEmpty()) {
            total += grid.length + longs.length + objects.length;
        }
        IntSupplier lambda = () -> n + 1;
        String text = "n=" + n + " m=" + m + " d=" + d + " f=" + f;
        synchronized (WarmUp.class) {
            try {
                total += Integer.parseInt(text) + lambda.getAsInt();
            } catch (NumberFormatException | IllegalStateException e) {
                total += e.getMessage().length();
            } finally {
                total ^= 1;
            }
        }
        if (total > 100) {
            throw new IllegalArgumentException(text);
        }
        return total + (int) (m >>> 3) + (int) Math.round(d * f);
    }
}

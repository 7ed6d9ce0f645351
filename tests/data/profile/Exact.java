/** Fixture for tests/profile_exact.rs: methods whose executed-bytecode counts are derived by hand there. */
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

public class Exact {
    static int sink;

    /** Straight-line code. */
    static int straight(int a, int b) {
        int c = a + b;
        int d = c * 2;
        return d - a;
    }

    /** A loop whose trip count is its argument. */
    static int loop(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        return s;
    }

    /** Recursion whose depth is its argument. */
    static int fact(int n) {
        if (n <= 1) {
            return 1;
        }
        return n * fact(n - 1);
    }

    /** An exception thrown in the middle of a block and caught in the same method. */
    static int catchMid(int[] a) {
        int x = 1;
        try {
            x = x + 2;
            x = x + a[5];
            x = x + 100;
        } catch (ArrayIndexOutOfBoundsException e) {
            x = -x;
        }
        return x;
    }

    /** An exception thrown in the middle of a block that leaves the method. */
    static int thrower(int[] a) {
        int y = 7;
        y = y * a[9];
        y = y + 1;
        return y;
    }

    /** Catches what {@link #thrower} throws. */
    static int callsThrower(int[] a) {
        try {
            return thrower(a);
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** Divides; throws ArithmeticException in the middle of the block when b is 0. */
    static int divide(int a, int b) {
        int q = a / b;
        return q + 1;
    }

    /** Switches and a wide iinc, so that call sites after them test the agent's bytecode offsets. */
    static int switches(int k) {
        int r;
        switch (k) {
            case 0: r = 10; break;
            case 1: r = 11; break;
            case 2: r = 12; break;
            default: r = 0;
        }
        switch (k * 1000) {
            case 0: r += 1; break;
            case 5000: r += 2; break;
            default: r += 3;
        }
        r += 1000;
        return straight(r, k);
    }

    /** Runs {@link #loop} on a second thread. */
    static void onAnotherThread() throws InterruptedException {
        Thread worker = new Thread(() -> sink += loop(10));
        worker.start();
        worker.join();
    }

    /** A comparator called back by the JDK's sort. */
    static void sortWithCallback() {
        Integer[] values = {3, 1, 2};
        Arrays.sort(values, (p, q) -> Integer.compare(p, q));
        sink += values[0];
    }

    /** A consumer called back by ArrayList.forEach. */
    static void forEachCallback() {
        List<Integer> list = new ArrayList<>();
        list.add(4);
        list.add(5);
        list.forEach(v -> sink += v);
    }

    public static void main(String[] args) throws InterruptedException {
        sink += straight(3, 4);
        sink += loop(10);
        sink += fact(5);
        sink += catchMid(new int[3]);
        sink += callsThrower(new int[3]);
        try {
            sink += divide(1, 0);
        } catch (ArithmeticException e) {
            sink += 1;
        }
        sink += switches(1);
        sortWithCallback();
        forEachCallback();
        onAnotherThread();
        System.out.println("sink " + sink);
        if (args.length > 0) {
            System.exit(Integer.parseInt(args[0]));
        }
    }
}

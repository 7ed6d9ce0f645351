import java.util.function.IntBinaryOperator;
import java.util.function.IntUnaryOperator;

/**
 * Lambdas and method references: each `invokedynamic` that `LambdaMetafactory` links creates an
 * object of a lambda class whose interface method calls the implementation, so calls through the
 * interface reach every lambda of the program that implements it (CHA), and a lambda's body costs
 * what it does.
 */
public class Lambdas {
    /** A functional interface of the fixture's own, implemented by two lambdas below. */
    interface Step {
        int next(int x);
    }

    /** Implemented by one capturing lambda only. */
    interface Counter {
        int count(int x);
    }

    // expect: O(n)
    static int increments(int n) {
        IntUnaryOperator inc = x -> x + 1;
        int s = 0;
        for (int i = 0; i < n; i++) {
            s = inc.applyAsInt(s);
        }
        return s;
    }

    // The lambda's loop runs to the captured `k`, a field of the lambda object: its cost is not
    // bounded in terms of the inputs (the value analysis does not follow fields), but it terminates.
    // expect: terminating
    static int captured(int n) {
        int k = n;
        Counter countTo = x -> {
            int c = 0;
            for (int j = 0; j < k; j++) {
                c += x;
            }
            return c;
        };
        return countTo.count(3);
    }

    // expect: O(1)
    static int reference(int a, int b) {
        IntBinaryOperator max = Math::max;
        return max.applyAsInt(a, b);
    }

    // expect: O(1)
    static int twice(int x) {
        return 2 * x;
    }

    // expect: O(log(x))
    static int halve(int x) {
        int steps = 0;
        while (x > 1) {
            x = x / 2;
            steps++;
        }
        return steps;
    }

    // expect: O(n)
    static int doubling(int n) {
        Step step = Lambdas::twice;
        int s = 1;
        for (int i = 0; i < n; i++) {
            s = step.next(s) % 1000;
        }
        return s;
    }

    // A call through `Step` may run either implementation: the bound covers both.
    // expect: O(n*log(m))
    static int either(int n, int m) {
        Step step = m > 0 ? Lambdas::twice : Lambdas::halve;
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += step.next(m);
        }
        return s;
    }
}

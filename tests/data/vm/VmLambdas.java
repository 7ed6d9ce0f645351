import java.util.function.IntBinaryOperator;
import java.util.function.IntUnaryOperator;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * Lambdas and method references, linked by `LambdaMetafactory`: the VM spins a class per bootstrap
 * method (a shared instance when nothing is captured). A conversion the proxy itself would box or
 * unbox is not spun, so `boxedReference` is refused; `boxed` boxes in its own code.
 */
public class VmLambdas {
    interface Check {
        boolean test(Object o);
    }

    static final Check NEVER = o -> false;
    static final Predicate<String> EMPTY = String::isEmpty;

    static Check never() {
        return NEVER;
    }

    // inputs: 0; 5; -7
    static int captured(int n) {
        IntUnaryOperator add = x -> x + n;
        IntBinaryOperator mul = (x, y) -> x * y * n;
        return add.applyAsInt(3) + mul.applyAsInt(2, n);
    }

    // inputs: ""; "abc"
    static boolean methodReference(String s) {
        return EMPTY.test(s) || NEVER.test(s);
    }

    // inputs:
    static boolean sharedInstance() {
        Check a = o -> o == null;
        return never() == NEVER && a.test(null);
    }

    // inputs: "hello"; ""
    static int interfaceReference(String s) {
        ToIntFunction<CharSequence> length = CharSequence::length;
        return length.applyAsInt(s);
    }

    // inputs: 3
    static String constructorReference(int n) {
        Supplier<StringBuilder> make = StringBuilder::new;
        StringBuilder b = make.get();
        for (int i = 0; i < n; i++) {
            b.append('x');
        }
        return b.toString();
    }

    // inputs: 4
    static int boxed(int n) {
        java.util.function.Function<Integer, Integer> f = x -> x + 1;
        return f.apply(n);
    }

    // inputs: "four"
    static int boxedReference(String s) {
        java.util.function.Function<String, Integer> length = String::length;
        return length.apply(s);
    }
}

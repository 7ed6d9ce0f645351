/**
 * Recursive functions with linear, exponential and logarithmic call depth.
 */
public class Recursion {

    /** Linear recursion: n + 1 calls. */
    public static long factorial(int n) {
        if (n <= 1) {
            return 1;
        }
        return n * factorial(n - 1);
    }

    /** Branching recursion: two recursive calls per level, exponential in n. */
    public static int fib(int n) {
        if (n < 2) {
            return n;
        }
        return fib(n - 1) + fib(n - 2);
    }

    /** Fast exponentiation: the exponent is halved at each call, about log2(e) calls. */
    public static long power(int b, int e) {
        if (e == 0) {
            return 1;
        }
        long half = power(b, e / 2);
        if (e % 2 == 0) {
            return half * half;
        }
        return half * half * b;
    }

    /** Recursive sum 0 + 1 + ... + n: n + 1 calls. */
    public static int sumTo(int n) {
        if (n <= 0) {
            return 0;
        }
        return n + sumTo(n - 1);
    }

    public static void main(String[] args) {
        System.out.println("factorial(10) = " + factorial(10));
        System.out.println("fib(15)       = " + fib(15));
        System.out.println("power(3, 13)  = " + power(3, 13));
        System.out.println("sumTo(100)    = " + sumTo(100));
    }
}

/**
 * Profiler benchmark workload: deep recursion through many call sites (an expression tree built and
 * evaluated recursively, mutual recursion, a recursive-descent parser, backtracking over n queens).
 */
public class Recursion {
    abstract static class Expr {
        abstract long eval(long x);
        abstract int depth();
    }

    static final class Const extends Expr {
        final long value;
        Const(long value) { this.value = value; }
        long eval(long x) { return value; }
        int depth() { return 1; }
    }

    static final class Var extends Expr {
        long eval(long x) { return x; }
        int depth() { return 1; }
    }

    static final class Add extends Expr {
        final Expr left, right;
        Add(Expr left, Expr right) { this.left = left; this.right = right; }
        long eval(long x) { return left.eval(x) + right.eval(x); }
        int depth() { return 1 + Math.max(left.depth(), right.depth()); }
    }

    static final class Mul extends Expr {
        final Expr left, right;
        Mul(Expr left, Expr right) { this.left = left; this.right = right; }
        long eval(long x) { return (left.eval(x) * right.eval(x)) % 1_000_003; }
        int depth() { return 1 + Math.max(left.depth(), right.depth()); }
    }

    static Expr build(int depth, int seed) {
        if (depth == 0) {
            return seed % 3 == 0 ? new Var() : new Const(seed % 17);
        }
        Expr left = build(depth - 1, seed * 31 + 7);
        Expr right = build(depth - 1, seed * 17 + 3);
        return seed % 2 == 0 ? new Add(left, right) : new Mul(left, right);
    }

    static boolean isEven(int n) { return n == 0 || isOdd(n - 1); }
    static boolean isOdd(int n) { return n != 0 && isEven(n - 1); }

    /** Recursive descent over "(1+2)*(3+(4*5))"-like text: expr := term ('+' term)*. */
    static final class Parser {
        final String text;
        int pos;
        Parser(String text) { this.text = text; }
        long expr() {
            long value = term();
            while (pos < text.length() && text.charAt(pos) == '+') { pos++; value += term(); }
            return value;
        }
        long term() {
            long value = factor();
            while (pos < text.length() && text.charAt(pos) == '*') { pos++; value = value * factor() % 1_000_003; }
            return value;
        }
        long factor() {
            char c = text.charAt(pos);
            if (c == '(') { pos++; long value = expr(); pos++; return value; }
            pos++;
            return c - '0';
        }
    }

    static String formula(int depth, int seed) {
        if (depth == 0) {
            return Integer.toString(Math.floorMod(seed, 10));
        }
        String op = seed % 2 == 0 ? "+" : "*";
        return "(" + formula(depth - 1, seed * 7 + 1) + op + formula(depth - 1, seed * 3 + 2) + ")";
    }

    /** Placements of n queens on an n-by-n board, by backtracking. */
    static int queens(int n, int row, int columns, int diagonals, int antidiagonals) {
        if (row == n) {
            return 1;
        }
        int count = 0;
        for (int column = 0; column < n; column++) {
            if (free(columns, column) && free(diagonals, row + column) && free(antidiagonals, row - column + n)) {
                count += queens(n, row + 1, columns | 1 << column, diagonals | 1 << (row + column), antidiagonals | 1 << (row - column + n));
            }
        }
        return count;
    }

    static boolean free(int taken, int index) {
        return (taken & 1 << index) == 0;
    }

    public static void main(String[] args) {
        int scale = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        Expr tree = build(10, 1);
        long sum = 0;
        for (int x = 0; x < 2_500 * scale; x++) {
            sum += tree.eval(x) + tree.depth();
        }
        int parity = 0;
        for (int r = 0; r < 10 * scale; r++) {
            for (int i = 0; i < 2_000; i++) {
                parity += isEven(i) ? 1 : 0;
            }
        }
        String text = formula(14, 5);
        long parsed = 0;
        for (int r = 0; r < 10 * scale; r++) {
            parsed += new Parser(text).expr();
        }
        int solutions = 0;
        for (int r = 0; r < scale; r++) {
            solutions += queens(10, 0, 0, 0, 0);
        }
        System.out.println(sum + " " + parity + " " + parsed + " " + solutions);
    }
}

/**
 * Helpers that never return normally: `Errors.fail` always throws. It is larger than a method the
 * analysis of a class lifts into it, so its callers use its summary, which has a cost but no
 * post-condition: a call of it ends the caller's path as a `throw` does.
 */
public class Failing {
    static final class Errors {
        static int last;

        // expect: O(1)
        static RuntimeException fail(int code) {
            int detail = code;
            switch (code & 31) {
                case 0:
                    detail = detail * 3 + 1;
                    break;
                case 1:
                    detail = detail * 4 + 2;
                    break;
                case 2:
                    detail = detail * 5 + 3;
                    break;
                case 3:
                    detail = detail * 6 + 4;
                    break;
                case 4:
                    detail = detail * 7 + 5;
                    break;
                case 5:
                    detail = detail * 8 + 6;
                    break;
                case 6:
                    detail = detail * 9 + 7;
                    break;
                case 7:
                    detail = detail * 10 + 8;
                    break;
                case 8:
                    detail = detail * 11 + 9;
                    break;
                case 9:
                    detail = detail * 12 + 10;
                    break;
                case 10:
                    detail = detail * 13 + 11;
                    break;
                case 11:
                    detail = detail * 14 + 12;
                    break;
                case 12:
                    detail = detail * 15 + 13;
                    break;
                case 13:
                    detail = detail * 16 + 14;
                    break;
                case 14:
                    detail = detail * 17 + 15;
                    break;
                case 15:
                    detail = detail * 18 + 16;
                    break;
                case 16:
                    detail = detail * 19 + 17;
                    break;
                case 17:
                    detail = detail * 20 + 18;
                    break;
                case 18:
                    detail = detail * 21 + 19;
                    break;
                case 19:
                    detail = detail * 22 + 20;
                    break;
                case 20:
                    detail = detail * 23 + 21;
                    break;
                case 21:
                    detail = detail * 24 + 22;
                    break;
                case 22:
                    detail = detail * 25 + 23;
                    break;
                case 23:
                    detail = detail * 26 + 24;
                    break;
                default:
                    detail = -detail;
            }
            last = detail;
            throw new IllegalStateException();
        }
    }

    // expect: O(1)
    static int checked(int x) {
        if (x < 0) {
            throw Errors.fail(x);
        }
        return x + 1;
    }

    // expect: O(n)
    static int sumChecked(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += checked(i);
        }
        return s;
    }

    // expect: O(1)
    static int recovered(int x) {
        try {
            throw Errors.fail(x);
        } catch (IllegalStateException e) {
            return -1;
        }
    }

    // expect: O(n)
    static int failsAfterLoop(int n) {
        int s = 0;
        for (int i = 0; i < n; i++) {
            s += i;
        }
        if (s > 100) {
            throw Errors.fail(s);
        }
        return s;
    }
}

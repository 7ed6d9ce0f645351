/**
 * Non-termination fixtures: loops with several paths (if/else, switch, ternary) or several exits.
 */
public class MultiPath {

    // Any positive x is driven towards 10 and then oscillates 10, 11, 10, ... staying positive.
    // expect: no  witness: 5
    static int oscillate(int x) {
        while (x > 0) {
            if (x > 10) {
                x = x - 1;
            } else {
                x = x + 1;
            }
        }
        return x;
    }

    // Subtractive gcd with a == 0: the else path computes b = b - 0 and nothing changes.
    // expect: no  witness: 0, 5
    static int badGcd(int a, int b) {
        while (a != b) {
            if (a > b) {
                a = a - b;
            } else {
                b = b - a;
            }
        }
        return a;
    }

    // Collatz step: 0 is even and 0 / 2 == 0, so x == 0 is a fixed point that never reaches 1.
    // expect: no  witness: 0
    static int collatz(int x) {
        int steps = 0;
        while (x != 1) {
            if (x % 2 == 0) {
                x = x / 2;
            } else {
                x = 3 * x + 1;
            }
            steps = steps + 1;
        }
        return steps;
    }

    // Odd x jumps over 0: 1 -> -1 -> 1 -> ... (the two branches undo each other).
    // expect: no  witness: 1
    static int zigzag(int x) {
        while (x != 0) {
            if (x > 0) {
                x = x - 2;
            } else {
                x = x + 2;
            }
        }
        return x;
    }

    // x alternates 5, -5: none of the three exits (> 100, < -100, == 7) ever fires.
    // expect: no  witness: 5
    static int manyExits(int x) {
        while (true) {
            if (x > 100) {
                return 1;
            }
            if (x < -100) {
                return 2;
            }
            if (x == 7) {
                break;
            }
            x = -x;
        }
        return 0;
    }

    // When b is false the only path through the body changes nothing.
    // expect: no  witness: 0, false
    static int onlyIfFlag(int x, boolean b) {
        while (x < 10) {
            if (b) {
                x = x + 1;
            }
        }
        return x;
    }

    // With y != 0 the loop only flips the sign of y (3, -3, 3, ...) and never touches x.
    // expect: no  witness: 1, 3
    static int toggleSign(int x, int y) {
        while (x > 0) {
            if (y == 0) {
                x = x - 1;
            } else {
                y = -y;
            }
        }
        return x;
    }

    // i cycles through 0..10 because of the reset, so it never equals 20.
    // expect: no  witness: 20
    static int resetCounter(int n) {
        int i = 0;
        while (i != n) {
            i = i + 1;
            if (i > 10) {
                i = 0;
            }
        }
        return i;
    }

    // x stays even and y stays odd (both paths add 2), so they are never equal.
    // expect: no  witness: 0, 1
    static int parityChase(int x, int y) {
        while (x != y) {
            if (x < y) {
                x = x + 2;
            } else {
                y = y + 2;
            }
        }
        return x;
    }

    // When again is true, x counts down to 0 and is refilled to 5 forever; the return needs again false.
    // expect: no  witness: 3, true
    static int refill(int x, boolean again) {
        while (true) {
            if (x > 0) {
                x = x - 1;
            } else if (again) {
                x = 5;
            } else {
                return 0;
            }
        }
    }

    // From 0 the three branches give 0 -> 1 -> 2 -> 0, never negative.
    // expect: no  witness: 0
    static int mod3Cycle(int x) {
        while (x >= 0) {
            if (x % 3 == 0) {
                x = x + 1;
            } else if (x % 3 == 1) {
                x = x + 1;
            } else {
                x = x - 2;
            }
        }
        return x;
    }

    // The body resets the loop counter to 0 whenever it reaches k == 3, so i never reaches 10.
    // expect: no  witness: 10, 3
    static int resetInFor(int n, int k) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            if (i == k) {
                i = 0;
            }
            c = c + 1;
        }
        return c;
    }

    // 3 is odd so it is doubled to 6, which is halved back to 3: never 1.
    // expect: no  witness: 3
    static int halveOrDouble(int x) {
        while (x != 1) {
            if ((x & 1) == 0) {
                x = x / 2;
            } else {
                x = x * 2;
            }
        }
        return x;
    }

    // The switch moves the state 0 -> 1 -> 2 -> 0; only state 3 leads to the exit state 4.
    // expect: no  witness: 0
    static int stateMachine(int s) {
        while (s != 4) {
            switch (s) {
                case 0:
                    s = 1;
                    break;
                case 1:
                    s = 2;
                    break;
                case 2:
                    s = 0;
                    break;
                default:
                    s = 4;
                    break;
            }
        }
        return s;
    }

    // From 0, steps of 7 reach 98 and then x oscillates 98, 105, 98, ...; 100 is never hit.
    // expect: no  witness: 0
    static int ternaryStep(int x) {
        while (x != 100) {
            x = x < 100 ? x + 7 : x - 7;
        }
        return x;
    }
}

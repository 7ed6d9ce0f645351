/**
 * Non-termination fixtures: single int loops (ints wrap, 32-bit two's complement).
 * Each method is annotated: "no" means some input (the witness) runs forever, "yes" that
 * every input terminates.
 */
public class IntegerLoops {

    // With y == 0 the update x = x + y leaves x == 1 unchanged, so x > 0 holds forever.
    // expect: no  witness: 1, 0
    static int addZero(int x, int y) {
        while (x > 0) {
            x = x + y;
        }
        return x;
    }

    // Subtracting 2 (even) keeps x odd even when it wraps, so an odd x never reaches 0.
    // expect: no  witness: 1
    static int subTwo(int x) {
        while (x != 0) {
            x = x - 2;
        }
        return x;
    }

    // Adding 2 never changes bit 0, so (x & 1) == 1 stays true for odd x (wrapping included).
    // expect: no  witness: 1
    static int oddBit(int x) {
        while ((x & 1) == 1) {
            x = x + 2;
        }
        return x;
    }

    // Swapping two different values never makes them equal: the state cycles with period 2.
    // expect: no  witness: 1, 2
    static int swap(int a, int b) {
        while (a != b) {
            int t = a;
            a = b;
            b = t;
        }
        return a;
    }

    // Rotating three distinct values keeps them distinct: the state cycles with period 3.
    // expect: no  witness: 1, 2, 3
    static int rotate3(int a, int b, int c) {
        while (a != b || b != c) {
            int t = a;
            a = b;
            b = c;
            c = t;
        }
        return a;
    }

    // Negation maps nonzero to nonzero: x alternates 5, -5, 5, ... with period 2.
    // expect: no  witness: 5
    static int negate(int x) {
        while (x != 0) {
            x = -x;
        }
        return x;
    }

    // -MIN_VALUE == MIN_VALUE in two's complement, so x stays negative forever for MIN_VALUE.
    // expect: no  witness: -2147483648
    static int minAbs(int x) {
        while (x < 0) {
            x = -x;
        }
        return x;
    }

    // Arithmetic shift keeps the sign bit: -1 >> 1 == -1, so x never becomes 0.
    // expect: no  witness: -1
    static int shiftRight(int x) {
        while (x != 0) {
            x = x >> 1;
        }
        return x;
    }

    // x - 1 and y + 1 preserve x + y exactly (also modulo 2^32), so the sum stays 1.
    // expect: no  witness: 1, 0
    static int keepSum(int x, int y) {
        while (x + y > 0) {
            x = x - 1;
            y = y + 1;
        }
        return x;
    }

    // x + 1 and y + 1 preserve the wrapped difference x - y, which stays 1.
    // expect: no  witness: 1, 0
    static int keepDiff(int x, int y) {
        while (x - y > 0) {
            x = x + 1;
            y = y + 1;
        }
        return x;
    }

    // The gap y - x shrinks by 2 per step, so an odd gap never becomes 0 modulo 2^32.
    // expect: no  witness: 0, 1
    static int oddGap(int x, int y) {
        while (x != y) {
            x = x + 3;
            y = y + 1;
        }
        return x;
    }

    // 2^29 * 3 = 1610612736 and 1610612736 * 3 wraps back to 2^29: a positive 2-cycle.
    // expect: no  witness: 536870912
    static int triple(int x) {
        while (x > 0) {
            x = x * 3;
        }
        return x;
    }

    // Multiplying by the odd 3 is injective modulo 2^32, so distinct x and y stay distinct.
    // expect: no  witness: 1, 2
    static int tripleBoth(int x, int y) {
        while (x != y) {
            x = x * 3;
            y = y * 3;
        }
        return x;
    }

    // x ^ (x << 1) keeps the lowest set bit of x, so a nonzero x never becomes 0.
    // expect: no  witness: 1
    static int xorShift(int x) {
        while (x != 0) {
            x = x ^ (x << 1);
        }
        return x;
    }

    // Flipping bit 0 of 2 gives 3 and back to 2: never 0.
    // expect: no  witness: 2
    static int flipBit(int x) {
        while (x != 0) {
            x = x ^ 1;
        }
        return x;
    }

    // Adding 8 never changes bit 2, so (x & 4) == 0 stays true for x == 0.
    // expect: no  witness: 0
    static int maskBit(int x) {
        while ((x & 4) == 0) {
            x = x + 8;
        }
        return x;
    }

    // From 1 the update x % 3 + 1 cycles 1, 2, 3, 1, ... and never yields 0.
    // expect: no  witness: 1
    static int mod3(int x) {
        while (x != 0) {
            x = x % 3 + 1;
        }
        return x;
    }

    // The do-while body maps x to 3 - x, so 1 goes to 2 and back to 1; neither is 0.
    // expect: no  witness: 1
    static int reflect(int x) {
        do {
            x = 3 - x;
        } while (x != 0);
        return x;
    }

    // The gap y - x grows by 2 per step, so an odd gap never becomes 0 and the break never fires.
    // expect: no  witness: 0, 1
    static int breakOnMeet(int x, int y) {
        while (true) {
            if (x == y) {
                break;
            }
            x = x + 2;
            y = y + 4;
        }
        return x;
    }

    // Rotation by 90 degrees: (1,0) -> (0,1) -> (-1,0) -> (0,-1) -> (1,0), never (0,0).
    // expect: no  witness: 1, 0
    static int rotate90(int x, int y) {
        while (x != 0 || y != 0) {
            int t = x;
            x = -y;
            y = t;
        }
        return x;
    }

    // x alternates 5, 2, 5, 2 while y alternates 3, -3: x stays nonnegative.
    // expect: no  witness: 5, 3
    static int alternate(int x, int y) {
        while (x >= 0) {
            x = x - y;
            y = -y;
        }
        return x;
    }

    // The counter starts at 0 and 0 * 2 == 0, so i < n holds forever when n > 0.
    // expect: no  witness: 1
    static int doublingFromZero(int n) {
        int c = 0;
        for (int i = 0; i < n; i = i * 2) {
            c = c + 1;
        }
        return c;
    }
}

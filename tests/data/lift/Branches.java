/**
 * Lifter fixture: conditional control flow. Comparisons of every operand
 * type, boolean logic, ternaries that keep values on the operand stack across
 * blocks, and the three shapes of switch (tableswitch, lookupswitch, String).
 */
public class Branches {

    // if/else on an int compared with zero (ifle / ifge / ifne ...)
    static int ifIntZero(int a) {
        if (a > 0) {
            return 1;
        } else if (a < 0) {
            return -1;
        } else {
            return 0;
        }
    }

    // if/else on two ints (if_icmpXX), all six relations
    static int ifIntCmp(int a, int b) {
        int r = 0;
        if (a == b) r |= 1;
        if (a != b) r |= 2;
        if (a < b) r |= 4;
        if (a <= b) r |= 8;
        if (a > b) r |= 16;
        if (a >= b) r |= 32;
        return r;
    }

    // if without else, falling through to a join point with a modified local
    static int ifNoElse(int a) {
        int r = a;
        if (a < 0) {
            r = -a;
        }
        return r + 1;
    }

    // if/else on longs: lcmp followed by ifXX
    static int ifLong(long a, long b) {
        if (a < b) {
            return -1;
        } else if (a == b) {
            return 0;
        }
        return 1;
    }

    // long compared against zero: lconst_0 lcmp ifXX
    static boolean isPositiveLong(long a) {
        return a > 0L;
    }

    // float comparisons: a < b uses fcmpg, a > b uses fcmpl (NaN makes both false)
    static int ifFloat(float a, float b) {
        if (a < b) {
            return -1;
        }
        if (a > b) {
            return 1;
        }
        if (a == b) {
            return 0;
        }
        return 2; // unordered (NaN)
    }

    // double comparisons: a <= b uses dcmpg, a >= b uses dcmpl, != uses dcmpl
    static int ifDouble(double a, double b) {
        if (a <= b) {
            return -1;
        }
        if (a >= b) {
            return 1;
        }
        if (a != b) {
            return 2; // unordered (NaN)
        }
        return 0;
    }

    // NaN test via self-comparison (dcmpl on the same value)
    static boolean isNaN(double d) {
        return d != d;
    }

    // reference comparisons: == null (ifnonnull), != null (ifnull)
    static int ifNull(Object a) {
        if (a == null) {
            return 0;
        }
        if (a != null) {
            return 1;
        }
        return 2;
    }

    // reference equality between two objects: if_acmpne / if_acmpeq
    static int ifSameRef(Object a, Object b) {
        if (a == b) {
            return 1;
        }
        if (a != b) {
            return 2;
        }
        return 3;
    }

    // boolean parameter tested directly (ifeq on a boolean)
    static int ifBoolean(boolean flag) {
        return flag ? 10 : 20;
    }

    // short-circuit &&: second condition only evaluated when the first holds
    static boolean and(int a, int b) {
        return a > 0 && b > 0;
    }

    // short-circuit ||
    static boolean or(int a, int b) {
        return a > 0 || b > 0;
    }

    // mixed && / || / ! in one condition
    static int mixedLogic(int a, int b, Object o) {
        if ((a > 0 && b > 0) || !(o != null || a == b)) {
            return 1;
        }
        return 0;
    }

    // non-short-circuit & and | on booleans (iand/ior, no extra branches)
    static boolean eagerLogic(int a, int b) {
        return (a > 0) & (b > 0) | (a == b);
    }

    // ternary inside an expression: `a` stays on the operand stack across the branch
    static int absPlus(int a, int b) {
        return a + (b > 0 ? b : -b);
    }

    // nested ternaries inside a call argument: stack holds the receiver and first arg across blocks
    static int clampSum(int a, int b, int lo, int hi) {
        return Math.addExact(a, b < lo ? lo : (b > hi ? hi : b));
    }

    // ternary producing a long inside a long expression (two-slot value across blocks)
    static long longTernary(long x, boolean neg) {
        return 100L * (neg ? -x : x);
    }

    // ternary producing a reference, joined with different types (common supertype Object)
    static Object refTernary(boolean s, int n) {
        Object o = s ? "string" : Integer.valueOf(n);
        return o;
    }

    // dense switch: tableswitch
    static int tableSwitch(int k) {
        switch (k) {
            case 0:
                return 10;
            case 1:
                return 11;
            case 2:
                return 12;
            case 3:
                return 13;
            case 4:
                return 14;
            default:
                return -1;
        }
    }

    // sparse switch with negative keys: lookupswitch
    static int lookupSwitch(int k) {
        switch (k) {
            case -1000:
                return 1;
            case -1:
                return 2;
            case 7:
                return 3;
            case 1000:
                return 4;
            case 100000:
                return 5;
            default:
                return 0;
        }
    }

    // switch on a String: hashCode lookupswitch, equals checks, then a second tableswitch
    static int stringSwitch(String s) {
        switch (s) {
            case "alpha":
                return 1;
            case "beta":
                return 2;
            case "gamma":
                return 3;
            default:
                return 0;
        }
    }

    // String switch with two labels whose hash codes collide ("Aa" and "BB")
    static int stringSwitchCollision(String s) {
        switch (s) {
            case "Aa":
                return 1;
            case "BB":
                return 2;
            default:
                return 0;
        }
    }

    // switch with fall-through between cases and a shared body
    @SuppressWarnings("fallthrough")
    static int fallThrough(int k) {
        int r = 0;
        switch (k) {
            case 1:
                r += 1;
            case 2:
                r += 2;
            case 3:
                r += 3;
                break;
            case 4:
            case 5:
                r = 45;
                break;
            default:
                r = -1;
        }
        return r;
    }

    // switch without default whose value is used after the switch
    static int switchNoDefault(int k) {
        int r = 7;
        switch (k) {
            case 10:
                r = 1;
                break;
            case 20:
                r = 2;
                break;
        }
        return r * 2;
    }

    // switch on a char (tableswitch over char codes)
    static int charSwitch(char c) {
        switch (c) {
            case 'a':
                return 1;
            case 'b':
                return 2;
            case 'c':
                return 3;
            default:
                return 0;
        }
    }
}

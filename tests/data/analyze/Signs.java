/** Loops whose variables change sign or move toward zero from either side: ranked by |x|. */
public class Signs {
    // expect: O(x)
    static int alternate(int x) {
        int c = 0;
        while (x != 0) {
            if (x > 0) {
                x = -(x - 1);
            } else {
                x = -(x + 1);
            }
            c++;
        }
        return c;
    }

    // expect: O(x)
    static int towardZero(int x) {
        int c = 0;
        while (x != 0) {
            if (x > 0) {
                x--;
            } else {
                x++;
            }
            c++;
        }
        return c;
    }

    // expect: O(x + y)
    static int bothTowardZero(int x, int y) {
        int c = 0;
        while (x != 0 || y != 0) {
            if (x > 0) {
                x--;
            } else if (x < 0) {
                x++;
            } else if (y > 0) {
                y--;
            } else {
                y++;
            }
            c++;
        }
        return c;
    }
}

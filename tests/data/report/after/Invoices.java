package billing;

/** After a change: one method per kind of change `jresa ci` reports. */
public class Invoices {
    /** Unchanged. */
    public static int total(int[] amounts) {
        int sum = 0;
        for (int i = 0; i < amounts.length; i++) {
            sum += amounts[i];
        }
        return sum;
    }

    /** Becomes quadratic: a larger class. */
    public static int duplicates(int[] ids) {
        int count = 0;
        for (int i = 0; i < ids.length; i++) {
            for (int j = 0; j < i; j++) {
                if (ids[i] == ids[j]) {
                    count++;
                }
            }
        }
        return count;
    }

    /** Does more work per line: same class, larger bound. */
    public static int weighted(int[] amounts) {
        int sum = 0;
        for (int i = 0; i < amounts.length; i++) {
            sum += amounts[i] * (i + 1) - i / 2;
        }
        return sum;
    }

    /** Loses its quadratic pass: a smaller class. */
    public static int pairs(int n) {
        int count = 0;
        for (int i = 0; i < n; i++) {
            count += n;
        }
        return count;
    }

    /** Loops over another parameter: incomparable classes. */
    public static int pages(int height, int width) {
        int count = 0;
        for (int i = 0; i < width; i++) {
            count += 2;
        }
        return count;
    }

    /** Loses its bound: the stride becomes n / 4, which is 0 (no progress) for small n. */
    public static int sample(int n) {
        int count = 0;
        for (int i = 0; i < n; i += n / 4) {
            count++;
        }
        return count;
    }

    /** Gains a bound. */
    public static int reminders(int days, int step) {
        int count = 0;
        for (int d = 0; d < days; d++) {
            count++;
        }
        return count;
    }

    /** Its parameter is renamed; the bound stays. */
    public static int lines(int rows) {
        int count = 0;
        for (int i = 0; i < rows; i++) {
            count += 3;
        }
        return count;
    }

    /** New. */
    public static int discount(int[] amounts, int percent) {
        int sum = 0;
        for (int i = 0; i < amounts.length; i++) {
            sum += amounts[i] * percent / 100;
        }
        return sum;
    }

    /** New, without a bound. */
    public static int settle(int balance, int payment) {
        int months = 0;
        while (balance > 0) {
            balance -= payment;
            months++;
        }
        return months;
    }
}

package billing;

/** Before a change: one method per kind of change `jresa ci` reports. */
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
        for (int i = 1; i < ids.length; i++) {
            if (ids[i] == ids[i - 1]) {
                count++;
            }
        }
        return count;
    }

    /** Does more work per line: same class, larger bound. */
    public static int weighted(int[] amounts) {
        int sum = 0;
        for (int i = 0; i < amounts.length; i++) {
            sum += amounts[i];
        }
        return sum;
    }

    /** Loses its quadratic pass: a smaller class. */
    public static int pairs(int n) {
        int count = 0;
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                count++;
            }
        }
        return count;
    }

    /** Loops over another parameter: incomparable classes. */
    public static int pages(int height, int width) {
        int count = 0;
        for (int i = 0; i < height; i++) {
            count += 2;
        }
        return count;
    }

    /** Loses its bound after the change (see after/Invoices.java). */
    public static int sample(int n) {
        int count = 0;
        for (int i = 0; i < n; i += 2) {
            count++;
        }
        return count;
    }

    /** Gains a bound. */
    public static int reminders(int days, int step) {
        int count = 0;
        for (int d = 0; d < days; d += step) {
            count++;
        }
        return count;
    }

    /** Its parameter is renamed; the bound stays. */
    public static int lines(int n) {
        int count = 0;
        for (int i = 0; i < n; i++) {
            count += 3;
        }
        return count;
    }

    /** Removed. */
    public static int legacy(int n) {
        return n + 1;
    }
}

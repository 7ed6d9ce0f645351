package shop;

/** Stock levels of a small shop, one array slot per article. */
public final class Inventory {
    private Inventory() {}

    /** The number of items in stock. */
    public static int total(int[] stock) {
        int sum = 0;
        for (int i = 0; i < stock.length; i++) {
            sum += stock[i];
        }
        return sum;
    }

    /** How many articles are below the reorder threshold. */
    public static int lowStock(int[] stock, int threshold) {
        int low = 0;
        for (int i = 0; i < stock.length; i++) {
            if (stock[i] < threshold) {
                low++;
            }
        }
        return low;
    }

    /** How many different article numbers a list of sales holds, sorted or not. */
    public static int distinctArticles(int[] sales) {
        int distinct = 0;
        for (int i = 0; i < sales.length; i++) {
            boolean seen = false;
            for (int j = 0; j < i; j++) {
                if (sales[j] == sales[i]) {
                    seen = true;
                }
            }
            if (!seen) {
                distinct++;
            }
        }
        return distinct;
    }

    /** How many deliveries of {@code batch} items it takes to fill the stock up to {@code target}. */
    public static int deliveries(int stock, int target, int batch) {
        int count = 0;
        while (stock < target) {
            stock += batch;
            count++;
        }
        return count;
    }
}

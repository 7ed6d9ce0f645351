public class FieldCountdown {
    int x;

    // The field this.x decreases by 1 while positive; nothing else writes it.
    // expect: terminating
    public int run() {
        int steps = 0;
        while (this.x > 0) {
            this.x = this.x - 1;
            steps++;
        }
        return steps;
    }

    // Straight-line code around one call to run.
    // expect: terminating
    public static void main(String[] args) {
        Random.args = args;
        FieldCountdown c = new FieldCountdown();
        c.x = Random.random();
        c.run();
    }
}

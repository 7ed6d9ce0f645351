public class MarkNode {
    int value;
    boolean visited;
    MarkNode next;

    MarkNode(int value) {
        this.value = value;
    }
}

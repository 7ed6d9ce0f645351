public final class Tree {
    final int value;
    final Tree left;
    final Tree right;

    Tree(int value, Tree left, Tree right) {
        this.value = value;
        this.left = left;
        this.right = right;
    }
}

package acme;

/** An order of the planted bank: one per transfer, one per audit. */
public record Order(int from, int to, long amount) {
}

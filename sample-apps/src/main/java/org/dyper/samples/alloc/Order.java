package org.dyper.samples.alloc;

/** An order: the planted allocated type, made only by {@link OrderBook#place(int, long)}. */
public final class Order {
    private final int id;
    private final int quantity;
    private final long price;

    Order(int id, int quantity, long price) {
        this.id = id;
        this.quantity = quantity;
        this.price = price;
    }

    public int id() {
        return id;
    }

    public int quantity() {
        return quantity;
    }

    public long price() {
        return price;
    }
}

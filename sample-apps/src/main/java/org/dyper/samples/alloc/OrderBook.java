package org.dyper.samples.alloc;

/** Keeps running totals of the orders placed; {@link #place} is the planted allocation site. */
public final class OrderBook {
    private int placed;
    private long quantity;
    private long value;
    private Order last;

    /** The planted allocation site: exactly one {@link Order} per call, and nothing else allocated. */
    public Order place(int quantity, long price) {
        Order order = new Order(placed + 1, quantity, price);
        placed++;
        this.quantity += order.quantity();
        value += order.quantity() * order.price();
        last = order;
        return order;
    }

    int placed() {
        return placed;
    }

    long quantity() {
        return quantity;
    }

    long value() {
        return value;
    }

    int lastId() {
        return last == null ? 0 : last.id();
    }
}

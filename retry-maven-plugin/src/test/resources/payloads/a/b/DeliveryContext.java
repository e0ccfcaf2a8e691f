package a.b;

public final class DeliveryContext {
}

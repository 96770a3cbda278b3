/// What board the kiosk runs on, as the kernel names it: the device tree's
/// model on ARM boards ("Raspberry Pi 4 Model B Rev 1.4"), the firmware's
/// vendor and product on PCs ("Intel(R) Client Systems NUC11TNHi5"). For
/// home automation's device page; nil where neither is there (a container).
public enum BoardModel {
    public static func read(root: String = "") -> String? {
        func field(_ path: String) -> String? {
            // sysfs and the device tree hold one short line; sysfs ends it with a newline, the device tree with NUL.
            guard let bytes = try? FileContents.bytes(root + path, limit: 4096) else { return nil }
            let text = ExternalText.oneLine(String(decoding: bytes.prefix { $0 != 0 && $0 != 0x0A }, as: UTF8.self), maximumBytes: 64).trimmingSpaces
            return text.isEmpty ? nil : text
        }
        if let model = field("/proc/device-tree/model") { return model }
        let product = field("/sys/class/dmi/id/product_name")
        guard let product else { return nil }
        guard let vendor = field("/sys/class/dmi/id/sys_vendor"), !product.hasPrefix(vendor) else { return product }
        return vendor + " " + product
    }
}

extension String {
    /// The text without spaces at either end.
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

// sd-bus (libsystemd) for the service's D-Bus interface. sd-bus's vtables are C macros and
// some of its calls are variadic: neither reaches Swift, so this shim builds the one object
// the service exports and leaves the rest (messages, signals, the loop) to Swift.
#ifndef CSDBUS_H
#define CSDBUS_H

#include <systemd/sd-bus.h>
#include <poll.h>

/// Appends the value of `property` (`Version`, `ProtocolMinor`, `Devices`, `Layouts`) to `reply`;
/// returns 0 or a negative errno.
typedef int (*gestured_bus_property_getter)(void *context, const char *property, sd_bus_message *reply);

/// Exports gestured's object (`path`, interface `interface`: its properties read through `getter`
/// with `context`, its signals declared for introspection) on `bus`. Returns 0 or a negative errno;
/// `*slot` keeps the object until unreferenced.
int gestured_bus_add_object(sd_bus *bus, const char *path, const char *interface, gestured_bus_property_getter getter,
                            void *context, sd_bus_slot **slot);

#endif

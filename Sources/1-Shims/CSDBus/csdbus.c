#include "csdbus.h"

#include <errno.h>
#include <stdlib.h>

// The getter and its context, as the vtable's userdata (one object per bus: freed with its slot).
struct gestured_bus_object {
    gestured_bus_property_getter getter;
    void *context;
};

static int get_property(sd_bus *bus, const char *path, const char *interface, const char *property,
                        sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void) bus; (void) path; (void) interface; (void) error;
    struct gestured_bus_object *object = userdata;
    return object->getter(object->context, property, reply);
}

#define GESTURE_PARAMETERS \
    SD_BUS_PARAM(kind) SD_BUS_PARAM(region) SD_BUS_PARAM(device) SD_BUS_PARAM(touches) SD_BUS_PARAM(x) \
    SD_BUS_PARAM(y) SD_BUS_PARAM(values)

static const sd_bus_vtable vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("Version", "s", get_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("ProtocolMinor", "u", get_property, 0, SD_BUS_VTABLE_PROPERTY_CONST),
    SD_BUS_PROPERTY("Devices", "a(sss)", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_PROPERTY("Layouts", "as", get_property, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE),
    SD_BUS_SIGNAL_WITH_NAMES("GestureRecognized", "sssudda{sv}", GESTURE_PARAMETERS, 0),
    SD_BUS_SIGNAL_WITH_NAMES("GestureBegin", "sssudda{sv}", GESTURE_PARAMETERS, 0),
    SD_BUS_SIGNAL_WITH_NAMES("GestureUpdate", "sssudda{sv}", GESTURE_PARAMETERS, 0),
    SD_BUS_SIGNAL_WITH_NAMES("GestureEnd", "sssudda{sv}", GESTURE_PARAMETERS, 0),
    SD_BUS_SIGNAL_WITH_NAMES("GestureCancel", "sssudda{sv}", GESTURE_PARAMETERS, 0),
    SD_BUS_VTABLE_END
};

static void free_object(void *userdata) { free(userdata); }

int gestured_bus_add_object(sd_bus *bus, const char *path, const char *interface, gestured_bus_property_getter getter,
                            void *context, sd_bus_slot **slot) {
    struct gestured_bus_object *object = malloc(sizeof *object);
    if (!object) return -ENOMEM;
    object->getter = getter;
    object->context = context;
    int r = sd_bus_add_object_vtable(bus, slot, path, interface, vtable, object);
    if (r < 0) {
        free(object);
        return r;
    }
    sd_bus_slot_set_destroy_callback(*slot, free_object);
    return 0;
}

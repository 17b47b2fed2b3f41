// libinput and libudev for Swift. Only the TouchInput module imports this.
#ifndef GESTURED_CINPUT_SHIM_H
#define GESTURED_CINPUT_SHIM_H

#include <libinput.h>
#include <libudev.h>

#endif

// Preloaded (`node --import`) into a service started by a test to run its process on a wrong wall clock: the
// clock reads `PORTARIA_TEST_CLOCK_OFFSET_MS` away from the machine's, as on a kiosk whose clock was set wrong.
const offsetMs = Number(process.env.PORTARIA_TEST_CLOCK_OFFSET_MS ?? 0);
const machineNow = Date.now;
Date.now = () => machineNow() + offsetMs;

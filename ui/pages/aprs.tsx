import { Shell } from '../components/Shell';
import { mount } from '../components/mount';

function Page() {
  return <Shell title="APRS">{null}</Shell>;
}

mount(Page);
